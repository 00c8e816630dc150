import type { Batch, Product } from './queue/types.ts';

// Where results land: <library>/<batch folder>/<product folder>/... Folder names are readable (the batch and
// product names) and safe on every platform.

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

export function safeName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 80);
  if (!cleaned) return 'untitled';
  return RESERVED.test(cleaned) ? `${cleaned}-` : cleaned;
}

export function batchFolder(batch: Pick<Batch, 'id' | 'name'>): string {
  return `${safeName(batch.name)} (${batch.id.slice(-6)})`;
}

export function productFolder(product: Pick<Product, 'name' | 'position'>): string {
  return `${String(product.position + 1).padStart(3, '0')} ${safeName(product.name)}`;
}
