import { basename } from 'node:path';
import type { productsChannels } from '../../shared/contract/products.ts';
import type { ProductIdentity, ProductSheetView } from '../../shared/models.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, Product } from '../queue/types.ts';
import { csvBomOf } from '../util/csv.ts';
import { safeComponent } from '../util/safe-names.ts';
import { IdentityStore } from './identity-store.ts';
import { identitiesFromNames, NamePatternError, parseNamePattern } from './name-pattern.ts';
import { sheetRows } from './sheet.ts';
import { readSheetCsv, SheetCsvError, sheetCsv } from './sheet-csv.ts';

// The product sheet through the map (issue 29): a batch's products with their SKU, handle, title, brand and
// alt text, edited cell by cell or a pasted column at once, read from names by a pattern, and exported and
// imported as CSV. Each change is one transaction: a paste or a file lands whole or not at all.

/**
 * The name a pattern reads: the product's own folder's name, or the SKU its folder's files were split by
 * (its path's last part), not its name in Adbatch, which a second "hat" in one scan made "hat (2)".
 */
function nameToRead(product: Product): string {
  return (product.path ? basename(product.path) : '') || product.name;
}

export function productsHandlers(
  ctx: AppContext & { store: QueueStore },
): HandlersOf<typeof productsChannels> {
  const { store } = ctx;
  const identities = new IdentityStore(store.db);

  const viewOf = (batch: Batch): ProductSheetView => ({
    batchId: batch.id,
    batchName: batch.name,
    rows: sheetRows(store, batch),
  });

  /** Writes each product's changed fields over what it has, in one transaction. */
  const write = (
    batch: Batch,
    changes: ReadonlyArray<{ productId: string; fields: Partial<ProductIdentity> }>,
  ) => {
    const rows = new Map(sheetRows(store, batch).map((row) => [row.id, row]));
    const missing = [...new Set(changes.map((change) => change.productId))].filter((id) => !rows.has(id));
    if (missing.length > 0) {
      throw new AppError('not_found', `Batch ${batch.name} has no product ${missing.join(', ')}.`);
    }
    const next = new Map<string, ProductIdentity>();
    for (const { productId, fields } of changes) {
      next.set(productId, { ...(next.get(productId) ?? rows.get(productId)!.identity), ...fields });
    }
    store.db.transaction(() => {
      for (const [productId, identity] of next) identities.set(productId, identity);
    })();
    return next.size;
  };

  return {
    'products:sheet': async ({ batchId }) => viewOf(requireBatch(store, batchId)),
    'products:update': async ({ batchId, changes }) => {
      const batch = requireBatch(store, batchId);
      write(
        batch,
        changes.map(({ productId, field, value }) => ({ productId, fields: { [field]: value } })),
      );
      return viewOf(batch);
    },
    'products:fromNames': async ({ batchId, pattern }) => {
      const batch = requireBatch(store, batchId);
      const products = store.batches.products(batch.id);
      let read: Array<Partial<ProductIdentity> | null>;
      try {
        read = identitiesFromNames(products.map(nameToRead), parseNamePattern(pattern), pattern.trim());
      } catch (error) {
        if (error instanceof NamePatternError) throw new AppError('bad_request', error.message);
        throw error;
      }
      const unmatched: string[] = [];
      const changes = products.flatMap((product, index) => {
        const fields = read[index];
        if (!fields) unmatched.push(product.name);
        return fields ? [{ productId: product.id, fields }] : [];
      });
      if (changes.length > 0) write(batch, changes);
      return { ...viewOf(batch), unmatched };
    },
    'products:exportCsv': async ({ batchId, bom }) => {
      const batch = requireBatch(store, batchId);
      return {
        csv: sheetCsv(sheetRows(store, batch), { bom: csvBomOf(ctx.settings(), bom) }),
        fileName: safeComponent(`${batch.name} products.csv`, 'file'),
      };
    },
    'products:importCsv': async ({ batchId, csv }) => {
      const batch = requireBatch(store, batchId);
      let changes: ReturnType<typeof readSheetCsv>;
      try {
        changes = readSheetCsv(csv, sheetRows(store, batch), batch.name);
      } catch (error) {
        if (error instanceof SheetCsvError) throw new AppError('bad_request', error.message);
        throw error;
      }
      const changed = changes.length > 0 ? write(batch, changes) : 0;
      return { ...viewOf(batch), changed };
    },
  };
}
