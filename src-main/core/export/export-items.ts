import { basename, join } from 'node:path';
import type { ExportScope } from '../../shared/models.ts';
import { AppError } from '../app/errors.ts';
import { sheetRows } from '../products/sheet.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { ProductId } from '../queue/ids.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, Job, Product } from '../queue/types.ts';
import { focusReader } from '../review/focus-store.ts';
import { type ProductKey, productKeyLabel } from '../review/product-key.ts';
import type { ReviewRow, ReviewStore } from '../review/review-store.ts';
import { SameProducts } from '../review/same-product.ts';
import type { ExportItem } from './export-item.ts';
import { creditShares } from './result-credits.ts';
import type { NotDownloaded } from './selection.ts';

// What an export can take, read from the queue and the review decisions as ExportItems, in the order they
// are numbered: each batch's products in batch order, a product's source photos, then its shots shoot by
// shoot, then its videos (Review's order).
//
// What names say of a product is its identity (core/products/): what ingest read or the designer typed in
// the product sheet, with its guesses where a field is empty (docs/products.md).

export interface ExportItems {
  items: ExportItem[];
  /** Things the export cannot take, in words (a catalog's source photo that is only a URL). */
  notices: string[];
  /** The batches the scope reads, in its order: whose client brand the export remembers its choice for. */
  batches: Batch[];
  /** The scope's results made but not downloaded (yet, or their download failed): not exported, and said. */
  notDownloaded: NotDownloaded;
}

interface Reader {
  store: QueueStore;
  review: ReviewStore;
}

export function exportItemsOf(reader: Reader, scope: ExportScope, withSources: boolean): ExportItems {
  const { store, review } = reader;
  const notices: string[] = [];
  const jobs = new Map<string, Job | null>();
  const jobOf = (id: string) => {
    if (!jobs.has(id)) jobs.set(id, store.jobs.get(id));
    return jobs.get(id)!;
  };
  const resultsOfJob = store.db.prepare<[string], { id: number }>(
    "SELECT id FROM assets WHERE job_id = ? AND kind IN ('image', 'video') ORDER BY id",
  );
  /** Each result's share of its job's net charge, by asset id (result-credits.ts). */
  const shares = new Map<string, Map<number, number>>();
  const shareOf = (job: Job, assetId: number): number => {
    let byAsset = shares.get(job.id);
    if (!byAsset) {
      const ids = resultsOfJob.all(job.id).map((row) => row.id);
      const split = creditShares(job.creditsCharged - job.creditsRefunded, Math.max(1, ids.length));
      byAsset = new Map(ids.map((id, rank) => [id, split[rank]!]));
      shares.set(job.id, byAsset);
    }
    return byAsset.get(assetId) ?? 0;
  };

  let groups: Array<{ batch: Batch; products: Product[]; rows: readonly ReviewRow[] }>;
  if (scope.product !== undefined) {
    const same = new SameProducts(store.db);
    const keys = same.keysNamedBy(scope.product);
    if (keys.length !== 1) {
      throw new AppError(
        keys.length === 0 ? 'not_found' : 'bad_request',
        keys.length === 0
          ? `No batch shot a product named ${scope.product}.`
          : `${scope.product} names ${keys.length} products: ${keys.map(productKeyLabel).join(', ')}. Name one by its folder.`,
      );
    }
    const products = same.of(keys[0] as ProductKey);
    const rows = review.acrossBatches(products, scope.resultIds);
    const batchIds = [...new Set(rows.map((row) => row.batchId as string))];
    for (const product of products) if (!batchIds.includes(product.batchId)) batchIds.push(product.batchId);
    groups = batchIds.map((id) => ({
      batch: requireBatch(store, id),
      products: products.filter((product) => product.batchId === id),
      rows: rows.filter((row) => row.batchId === id),
    }));
  } else {
    const ids = scope.batchIds ?? [];
    groups = ids.map((id) => {
      const batch = requireBatch(store, id);
      const rows = scope.resultIds ? review.itemsOf(batch.id, scope.resultIds) : review.items(batch.id);
      if (scope.resultIds && rows.length !== new Set(scope.resultIds).size) {
        const found = new Set(rows.map((row) => row.assetId as number));
        throw new AppError(
          'not_found',
          `Batch ${batch.id} has no result with id ${scope.resultIds.filter((resultId) => !found.has(resultId)).join(', ')}.`,
        );
      }
      return { batch, products: store.batches.products(batch.id), rows };
    });
  }
  // A selection from Review holds downloaded results only: nothing of it is waiting for its file.
  const notDownloaded: NotDownloaded = { shot: 0, video: 0 };
  if (!scope.resultIds) {
    const waiting = store.db.prepare<[string, string], { kind: 'image' | 'video'; n: number }>(
      `SELECT a.kind AS kind, COUNT(*) AS n FROM assets a JOIN jobs j ON j.id = a.job_id
       WHERE j.batch_id = ? AND j.product_id IN (SELECT value FROM json_each(?))
         AND a.kind IN ('image', 'video') AND a.state != 'done'
       GROUP BY a.kind`,
    );
    for (const { batch, products } of groups) {
      for (const row of waiting.all(batch.id, JSON.stringify(products.map((product) => product.id)))) {
        notDownloaded[row.kind === 'video' ? 'video' : 'shot'] += row.n;
      }
    }
  }
  const focusOf = focusReader(store.db);
  const items: ExportItem[] = [];
  for (const { batch, products, rows } of groups) {
    const identities = new Map(sheetRows(store, batch, products).map((row) => [row.id, row.used]));
    const byProduct = new Map<ProductId, ReviewRow[]>();
    for (const row of rows) {
      const productRows = byProduct.get(row.productId);
      if (productRows) productRows.push(row);
      else byProduct.set(row.productId, [row]);
    }
    for (const product of products) {
      const productRows = byProduct.get(product.id) ?? [];
      // A selection from Review exports its results; a product with none of them is not in it.
      if (scope.resultIds && productRows.length === 0) continue;
      const sourcePhotos = product.photos.map((photo) =>
        basename(photo.source ?? photo.path ?? photo.url ?? ''),
      );
      const identity = identities.get(product.id)!;
      const common = {
        productKey: `${batch.id}/${product.id}`,
        brand: identity.brand,
        product: product.name,
        sku: identity.sku,
        handle: identity.handle,
        title: identity.title,
        alt: identity.alt,
        batch: batch.name,
        sourcePhotos,
      };
      if (withSources) {
        product.photos.forEach((photo, index) => {
          if (!photo.path) {
            notices.push(
              `${product.name}: source photo ${index + 1} is only a URL (${photo.url}), not a file on this computer; it is left out.`,
            );
            return;
          }
          items.push({
            ...common,
            key: `source:${product.id}:${index}`,
            kind: 'source',
            file: photo.path,
            style: '',
            shot: index + 1,
            stars: 0,
            flag: null,
            jobId: null,
            credits: null,
            aiGenerated: false,
          });
        });
      }
      for (const row of productRows) {
        const job = jobOf(row.jobId);
        items.push({
          ...common,
          key: `asset:${row.assetId}`,
          kind: row.kind,
          file: join(batch.libraryDir, row.path),
          style: row.style ?? '',
          shot: row.index,
          stars: row.stars,
          flag: row.flag,
          label: row.label,
          // Adbatch's own id, as the statement and the ledger name the job: the one that joins them.
          jobId: row.jobId,
          credits: job ? shareOf(job, row.assetId) : null,
          aiGenerated: true,
          focus: focusOf(row.assetId),
        });
      }
    }
  }
  return { items, notices, batches: groups.map((group) => group.batch), notDownloaded };
}
