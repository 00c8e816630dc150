import type { Migration } from '../migrate.ts';

// What a product is called where it is sold (issue 29): its SKU, handle, title, brand and image alt text,
// read from a catalog or from its folder's and files' names at ingest, or edited in the product sheet. A
// table beside `products` (one row per product, '' where a field is unknown) so that a product stored
// before it, or scanned with nothing to say, has no row and keeps its guesses (core/products/identity.ts).
export const productIdentity: Migration = {
  version: 16,
  name: '016-product-identity',
  up(db) {
    db.exec(`
      CREATE TABLE product_identity (
        product_id TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
        sku TEXT NOT NULL DEFAULT '',
        handle TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        brand TEXT NOT NULL DEFAULT '',
        alt_text TEXT NOT NULL DEFAULT ''
      );
    `);
  },
};
