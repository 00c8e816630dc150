import type { Migration } from '../migrate.ts';

// Where a product came from, so exports can mirror the dropped folder's layout, and what it was shot from
// and with, so a product already shot in an earlier batch is recognised before credits are spent again.
export const productOrigin: Migration = {
  version: 2,
  name: '002-product-origin',
  up(db) {
    db.exec(`
      ALTER TABLE products ADD COLUMN rel_path TEXT NOT NULL DEFAULT '';
      ALTER TABLE products ADD COLUMN fingerprint TEXT;
      CREATE INDEX products_fingerprint ON products(fingerprint) WHERE fingerprint IS NOT NULL;
    `);
  },
};
