import { beforeEach, describe, expect, it } from 'vitest';
import type { NewProduct } from '../../../../src-main/core/queue/types.ts';

type Stored = NewProduct & { path: string };

import { productKeyOf } from '../../../../src-main/core/review/product-key.ts';
import { SameProducts } from '../../../../src-main/core/review/same-product.ts';
import { newBatch, storePerTest } from '../queue/store-fixtures.ts';

// What makes "the same product" across batches (review/product-key.ts), and the products a person's words
// name, on products stored by the real queue store in a real SQLite file.

const ctx = storePerTest();
let same: SameProducts;
beforeEach(async () => {
  same = new SameProducts(ctx.db);
});

/** A folder's own product, as a scan of `/photos/<rel>` makes it. */
const folder = (rel: string, name = rel.split('/').pop()!): Stored => ({
  name,
  sourceDir: `/photos/${rel}`,
  path: rel,
  photos: [{ path: `/photos/${rel}/1.jpg`, url: null, hash: `h-${rel}` }],
});
/** One SKU of a folder split by the SKUs in its file names. */
const sku = (dir: string, code: string): Stored => ({
  name: code,
  sourceDir: `/photos/${dir}`,
  path: `${dir}/${code}`,
  photos: [{ path: `/photos/${dir}/${code}_1.jpg`, url: null }],
});
/** A catalog's product: public URLs, its handle as its path. */
const handle = (catalog: string, code: string, name = code): Stored => ({
  name,
  sourceDir: `/catalogs/${catalog}`,
  path: code,
  photos: [{ path: null, url: `https://cdn.example.com/${catalog}/${code}.jpg` }],
});

const store = (name: string, products: NewProduct[]) =>
  ctx.store.createBatch(newBatch({ name, video: null, products }));

describe('the same product across batches', () => {
  it('is the same folder, the same SKU of a folder, or the same catalog handle', () => {
    expect(productKeyOf(folder('shoes/hat'))).toBe('folder:/photos/shoes/hat');
    expect(productKeyOf(sku('mixed', 'SKU12'))).toBe('folder:/photos/mixed/SKU12');
    expect(productKeyOf(handle('spring.csv', 'hat-01', 'Hat'))).toBe('handle:hat-01');
    // Loose files dropped from a folder: each SKU is named under the folder that holds it.
    expect(productKeyOf({ ...sku('loose', 'mug'), path: 'mug' })).toBe('folder:/photos/loose/mug');
    // Stored before the path was kept: a folder's product is its folder, a catalog's its name.
    expect(productKeyOf({ ...folder('old'), path: '' })).toBe('folder:/photos/old');
    expect(productKeyOf({ ...handle('old.csv', 'x', 'Old hat'), path: '' })).toBe('handle:Old hat');
  });

  it('finds a product in every batch, and nothing that only looks like it', () => {
    const spring = store('Spring', [folder('shoes/hat'), sku('mixed', 'SKU12'), handle('a.csv', 'tote')]);
    const summer = store('Summer', [
      folder('shoes/hat'),
      sku('mixed', 'SKU13'),
      handle('b.csv', 'tote', 'Tote bag'),
      // The same photos in another folder are another product.
      { ...folder('archive/hat'), photos: folder('shoes/hat').photos },
    ]);
    const batchesOf = (key: string) => same.of(key).map((product) => [product.batchId, product.name]);
    expect(batchesOf('folder:/photos/shoes/hat')).toEqual([
      [spring.id, 'hat'],
      [summer.id, 'hat'],
    ]);
    expect(batchesOf('folder:/photos/mixed/SKU12')).toEqual([[spring.id, 'SKU12']]);
    expect(batchesOf('handle:tote')).toEqual([
      [spring.id, 'tote'],
      [summer.id, 'Tote bag'],
    ]);
    expect(batchesOf('folder:/photos/mixed')).toEqual([]);
  });

  it('is named by a key, a product id, a folder, or a SKU that names one product', () => {
    const batch = store('Spring', [folder('shoes/hat'), sku('mixed', 'SKU12'), handle('a.csv', 'tote')]);
    const [hat] = ctx.store.batches.products(batch.id);
    expect(same.keysNamedBy('folder:/photos/shoes/hat')).toEqual(['folder:/photos/shoes/hat']);
    expect(same.keysNamedBy(hat!.id)).toEqual(['folder:/photos/shoes/hat']);
    expect(same.keysNamedBy('/photos/shoes/hat/')).toEqual(['folder:/photos/shoes/hat']);
    expect(same.keysNamedBy('/photos/shoes/../shoes/hat')).toEqual(['folder:/photos/shoes/hat']);
    expect(same.keysNamedBy('hat')).toEqual(['folder:/photos/shoes/hat']);
    expect(same.keysNamedBy('SKU12')).toEqual(['folder:/photos/mixed/SKU12']);
    expect(same.keysNamedBy('tote')).toEqual(['handle:tote']);
    expect(same.keysNamedBy('ha')).toEqual([]);
    expect(same.keysNamedBy('hat%')).toEqual([]);

    // A SKU that names two products (a folder and a catalog's handle) is for the person to choose.
    store('Summer', [handle('b.csv', 'hat')]);
    expect(same.keysNamedBy('hat')).toEqual(['folder:/photos/shoes/hat', 'handle:hat']);
  });
});
