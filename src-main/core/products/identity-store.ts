import type { ProductIdentity } from '../../shared/models.ts';
import { IDENTITY_FIELDS } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import type { ProductId } from '../queue/ids.ts';
import { cleanIdentity } from './identity.ts';

// Products' identities (migration 015): one row per product that has one, '' where a field is unknown.

interface IdentityRow {
  product_id: string;
  sku: string;
  handle: string;
  title: string;
  brand: string;
  alt_text: string;
}

function toIdentity(row: IdentityRow): ProductIdentity {
  return { sku: row.sku, handle: row.handle, title: row.title, brand: row.brand, alt: row.alt_text };
}

export class IdentityStore {
  constructor(private readonly db: Db) {}

  /** The stored identities of a batch's products, by product id (a product without one is absent). */
  ofBatch(batchId: string): Map<string, ProductIdentity> {
    const rows = this.db
      .prepare<[string], IdentityRow>(
        `SELECT i.* FROM product_identity i JOIN products p ON p.id = i.product_id WHERE p.batch_id = ?`,
      )
      .all(batchId);
    return new Map(rows.map((row) => [row.product_id, toIdentity(row)]));
  }

  /** Writes a product's whole identity (each field trimmed), replacing what it had. */
  set(productId: ProductId | string, identity: Partial<ProductIdentity>): void {
    const clean = cleanIdentity(identity);
    this.db
      .prepare(
        `INSERT INTO product_identity (product_id, sku, handle, title, brand, alt_text)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (product_id) DO UPDATE SET sku = excluded.sku, handle = excluded.handle,
           title = excluded.title, brand = excluded.brand, alt_text = excluded.alt_text`,
      )
      .run(productId, ...IDENTITY_FIELDS.map((field) => clean[field]));
  }
}
