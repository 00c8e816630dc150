import type { ProductIdentity, ProductSheetRow } from '../../shared/models.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, Product } from '../queue/types.ts';
import { guessedIdentity, identityUsed } from './identity.ts';
import { IdentityStore } from './identity-store.ts';

// A batch's products with their identities, as the product sheet, its CSV and export read them: what is
// stored (or, for a product stored before identities were kept, what export guessed of it) and what names
// use (identity.ts).

/** The sheet's rows of these products of the batch (all of them by default), in the same order. */
export function sheetRows(
  store: QueueStore,
  batch: Batch,
  products: readonly Product[] = store.batches.products(batch.id),
): ProductSheetRow[] {
  const stored = new IdentityStore(store.db).ofBatch(batch.id);
  const brand = store.batches.brandName(batch.id) ?? '';
  return products.map((product) => {
    const own: ProductIdentity = stored.get(product.id) ?? guessedIdentity(product);
    return { id: product.id, name: product.name, identity: own, used: identityUsed(product, own, brand) };
  });
}
