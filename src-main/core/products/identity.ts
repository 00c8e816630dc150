import { basename } from 'node:path';
import type { ProductIdentity } from '../../shared/models.ts';
import { isShopifyHandle } from '../../shared/shopify-handle.ts';
import { IDENTITY_FIELDS } from '../../shared/vocabulary.ts';
import type { Product } from '../queue/types.ts';
import { productKeyOf } from '../review/product-key.ts';

// A product's identity as export names and manifests use it (docs/products.md). What was read at ingest or
// typed in the product sheet is stored (identity-store.ts); where a field is empty, a guess, named here:
// - `title`: the product's name (its folder's, or the catalog's title).
// - `handle`: a Shopify-style handle made from the title (lower case, dashes): `Cap / Black` → `cap-black`.
// - `brand`: the brand the batch was made for, if any.
// - `sku` and `alt`: no guess. A product stored before identities were kept (it has no stored row) keeps the
//   guesses export made then: its SKU is what ingest knew, a catalog row's handle or product column or the
//   SKU a folder was split by (`SKU123_1.jpg` → SKU123); a catalog key that is a handle already is its handle.

export const EMPTY_IDENTITY: ProductIdentity = Object.freeze({
  sku: '',
  handle: '',
  title: '',
  brand: '',
  alt: '',
});

/** A Shopify-style handle from a name: lower case, letters and digits, dashes between words. */
export function handleOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** What a product stored without an identity is taken to be: see above. */
export function guessedIdentity(product: Product): ProductIdentity {
  const key = productKeyOf(product);
  const catalogKey = key.startsWith('handle:') ? key.slice('handle:'.length) : null;
  const own = product.path ? basename(product.path) : '';
  // A folder split by the SKUs in its file names stores each SKU as its path's last part.
  const sku = catalogKey ?? (own && own !== basename(product.sourceDir) ? own : '');
  return { ...EMPTY_IDENTITY, sku, handle: catalogKey && isShopifyHandle(catalogKey) ? catalogKey : '' };
}

/** The identity names use: the stored one (else the guess), its empty title, handle and brand guessed. */
export function identityUsed(
  product: Product,
  stored: ProductIdentity | null,
  batchBrand: string,
): ProductIdentity {
  const own = stored ?? guessedIdentity(product);
  const title = own.title || product.name;
  return {
    sku: own.sku,
    handle: own.handle || handleOf(title),
    title,
    brand: own.brand || batchBrand,
    alt: own.alt,
  };
}

/** An identity with every field trimmed, one line each (a pasted cell's line break is a space). */
export function cleanIdentity(identity: Partial<ProductIdentity>): ProductIdentity {
  const clean = { ...EMPTY_IDENTITY };
  for (const field of IDENTITY_FIELDS) clean[field] = (identity[field] ?? '').replace(/\s+/g, ' ').trim();
  return clean;
}
