import { basename, dirname, join } from 'node:path';
import type { Photo, Product } from '../queue/types.ts';

// What makes two products of different batches "the same product", for Review of one product across every
// batch that shot it. Each batch stores its own product rows; nothing links them but where their photos
// came from.
//
// Guess (named as such in docs/review.md): a designer means the same product when its photos came from
// the same folder (its absolute path, as ingest resolved it when the folder was dropped), or from the same
// catalog SKU or handle (the Shopify handle, or the product column of a simple catalog), whatever catalog
// file it was in. A folder split into several products by the SKUs in its file names (or loose files
// dropped on their own) gives each SKU the path `<folder>/<SKU>`, so the same SKU from the same folder is
// the same product, as ingest labels it. Not the same product: the same photos in another folder (copied
// elsewhere, the folder renamed), or a folder and a catalog that happen to share a name. Paths are compared
// as stored, letter for letter, as the file system of the machine that scanned them spells them.
//
// It is the one rule for a product's identity: New batch's memory of a scan (a hero chosen, a product left
// out: app/scan-holder.ts) keys a scanned product by it too, so a product left out of a scan is the very
// product Review and export scope to, whatever name the scan gave it ("hat (2)" beside another "hat").

/** A product's identity across batches: `folder:<absolute path>` or `handle:<SKU or handle>`. */
export type ProductKey = string;

/** What identifies a product: a stored one, or one of a scan (ingest's PlannedProduct) before it is stored. */
type Identified = Pick<Product, 'name' | 'sourceDir' | 'path'> & {
  photos: ReadonlyArray<Pick<Photo, 'path' | 'url'>>;
};

/** A catalog's product: its photos are public URLs, sent as they are (no local file), whichever is its hero. */
function fromCatalog(product: Identified): boolean {
  return product.photos.length > 0 && product.photos.every((photo) => !photo.path && Boolean(photo.url));
}

export function productKeyOf(product: Identified): ProductKey {
  // Products stored before their path was kept have '' there: the catalog's product is then its name.
  if (fromCatalog(product)) return `handle:${product.path || product.name}`;
  const own = product.path ? basename(product.path) : '';
  // A folder's one product has the folder's name as its path's last part; a SKU split out of it its SKU.
  if (!own || own === basename(product.sourceDir)) return `folder:${product.sourceDir}`;
  return `folder:${join(product.sourceDir, own)}`;
}

/** The key as people read it: the folder, or `SKU hat-01`. */
export function productKeyLabel(key: ProductKey): string {
  if (key.startsWith('folder:')) return key.slice('folder:'.length);
  return `SKU ${key.slice('handle:'.length)}`;
}

export function isProductKey(text: string): boolean {
  return /^(folder|handle):./.test(text);
}

/**
 * Where to look for the products of a key, before each candidate's own key is compared: a folder's key is
 * stored under its folder, or, for a SKU split out of a folder, under the folder that holds it; a
 * catalog's under its handle (or its name, for products stored before the handle was kept).
 */
export function keyLookup(
  key: ProductKey,
): { sourceDirs: [string, string]; relPath?: never } | { relPath: string; sourceDirs?: never } {
  if (key.startsWith('folder:')) {
    const path = key.slice('folder:'.length);
    return { sourceDirs: [path, dirname(path)] };
  }
  return { relPath: key.slice('handle:'.length) };
}
