import { someNamed } from './counted.ts';

// A Shopify handle: the product's address in the shop (`/products/<handle>`) and the key its CSV import
// matches rows by. Shopify's handles are lower-case letters and digits with single dashes between them
// ("wool-hat"; a script without case as it is); a typed "Wool Hat" names no product there. Shared: the import file leaves such a row out
// with the reason (core/export/shopify-import.ts), and the product sheet says so as it is typed.

/** Letters without upper case (lower-case ones, and scripts without case: 日本, עברית) and digits. */
const HANDLE = /^[\p{Ll}\p{Lo}\p{Lm}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{N}]+)*$/u;

export function isShopifyHandle(handle: string): boolean {
  return HANDLE.test(handle);
}

/** The product sheet's word (app and CLI) on handles Shopify would not take; null when every one is fine. */
export function unusableHandleWords(
  rows: readonly { name: string; used: { handle: string } }[],
): string | null {
  const unusable = rows.filter((row) => row.used.handle !== '' && !isShopifyHandle(row.used.handle));
  if (unusable.length === 0) return null;
  const named = someNamed(unusable.map((row) => `${row.name} (“${row.used.handle}”)`));
  return `${unusable.length} of ${rows.length} products have a handle Shopify does not take (lower-case letters and digits, dashes between words): ${named}.`;
}
