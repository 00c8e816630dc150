import { isAbsolute, normalize, sep } from 'node:path';
import type { Db } from '../db/open.ts';
import { type ProductRow, toProduct } from '../queue/rows.ts';
import type { Product } from '../queue/types.ts';
import { isProductKey, keyLookup, type ProductKey, productKeyOf } from './product-key.ts';

// Finding one product in every batch that shot it (see product-key.ts for what "the same" means), and the
// product a person names: the app names one of its rows, the CLI a folder or a SKU. Products have no index
// on their folder or path (a migration for a lookup made on a key press did not seem worth it): a look is
// one scan of the products table, a few milliseconds for tens of thousands of products.

export class SameProducts {
  constructor(private readonly db: Db) {}

  /** Every product with this key, of any batch. */
  of(key: ProductKey): Product[] {
    const lookup = keyLookup(key);
    const rows = lookup.sourceDirs
      ? this.db
          .prepare<[string, string], ProductRow>('SELECT * FROM products WHERE source_dir IN (?, ?)')
          .all(...lookup.sourceDirs)
      : this.db
          .prepare<[{ handle: string }], ProductRow>(
            "SELECT * FROM products WHERE rel_path = @handle OR (rel_path = '' AND name = @handle)",
          )
          .all({ handle: lookup.relPath });
    return rows.map(toProduct).filter((product) => productKeyOf(product) === key);
  }

  /**
   * The products' keys that these words name, in the order first found: a key as Review answers it; a
   * product's id (that product, in every batch); an absolute folder; else a SKU or handle, which names a
   * catalog's product with that handle and any folder's product whose folder (or SKU) has that name. One key
   * is a match, several are for the person to choose from, none is nothing found.
   */
  keysNamedBy(words: string): ProductKey[] {
    if (isProductKey(words)) return [words];
    const row = this.db.prepare<[string], ProductRow>('SELECT * FROM products WHERE id = ?').get(words);
    if (row) return [productKeyOf(toProduct(row))];
    if (isAbsolute(words)) {
      const folder = normalize(words);
      return [`folder:${folder.length > 1 && folder.endsWith(sep) ? folder.slice(0, -1) : folder}`];
    }
    const rows = this.db
      .prepare<[{ words: string; tail: string }], ProductRow>(
        `SELECT * FROM products WHERE rel_path = @words OR substr(rel_path, -length(@tail)) = @tail
           OR (rel_path = '' AND name = @words) ORDER BY rowid`,
      )
      .all({ words, tail: `${sep}${words}` });
    const keys = rows
      .map((found) => productKeyOf(toProduct(found)))
      .filter((key) => key === `handle:${words}` || key.endsWith(`${sep}${words}`));
    return [...new Set(keys)];
  }
}
