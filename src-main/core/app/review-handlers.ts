import { join } from 'node:path';
import type { ReviewDecided, ReviewItemView, ReviewPage } from '../../shared/models.ts';
import { isReviewed, matchesReviewFilter } from '../../shared/review-filter.ts';
import type { AssetId, BatchId } from '../queue/ids.ts';
import type { Batch, Product } from '../queue/types.ts';
import { changed, countsOf } from '../review/decide.ts';
import type { ResultPreviews } from '../review/previews.ts';
import type { ReviewHistory } from '../review/review-history.ts';
import type { Decision, ReviewRow, ReviewStore } from '../review/review-store.ts';
import type { CoreContext } from './context.ts';
import { requireBatch } from './decisions.ts';
import type { HandlerMap } from './dispatch.ts';
import { AppError } from './errors.ts';

// Review, through the map: the results of a batch with their decisions, filtered and counted, and the
// decisions themselves (on one result or a selection, "keep this one", undo and redo), each committed as it
// is made.

/**
 * Up to this many results, their products' source photos are read one product at a time rather than the
 * whole batch's at once (a guess at where one query for 2,000 products starts to pay: a first page of a few
 * hundred results names a hundred products or so).
 */
const FEW_PRODUCTS_ITEMS = 500;

/**
 * Where a page ends: after `limit` results, and then after the rest of its last product's, so that a product
 * is never split across pages and "keep this one, reject the rest" names only results of the pages a view
 * already has.
 */
function pageEnd(rows: readonly ReviewRow[], page: ReviewPage): number {
  let end = Math.min(rows.length, page.offset + page.limit);
  while (end > page.offset && end < rows.length && rows[end]!.productId === rows[end - 1]!.productId) end++;
  return end;
}

export function reviewHandlers(
  ctx: CoreContext & { review: ReviewStore; reviewHistory: ReviewHistory; previews: ResultPreviews },
): Pick<HandlerMap, 'review:get' | 'review:decide' | 'review:keep' | 'review:undo' | 'review:redo'> {
  const { store, review, reviewHistory: history, files, previews } = ctx;

  /**
   * A shot's previews, or its original while they are missing: answering at once matters more than one
   * look at a full-size file, since making the previews of a whole batch whose cache was cleared takes
   * minutes. The missing ones are made again in the background and appear from the next answer on.
   */
  const previewUrls = (
    row: ReviewRow,
    original: string,
    thumbnailUrl: string | null,
    present: (sha256: string) => boolean,
  ): Pick<ReviewItemView, 'gridUrl' | 'screenUrl'> => {
    if (row.kind === 'video') return { gridUrl: thumbnailUrl, screenUrl: null };
    if (row.sha256 && present(row.sha256)) {
      return {
        gridUrl: files.url(previews.path('grid', row.sha256)),
        screenUrl: files.url(previews.path('screen', row.sha256)),
      };
    }
    // Guess: a result without a sha256 (none is recorded without one today) keeps showing its original.
    if (row.sha256) void previews.rebuild(original, row.sha256);
    const url = files.url(original);
    return { gridUrl: url, screenUrl: url };
  };

  /**
   * Each product's hero photo as it was sent, for the A/B wipe, read once per answer: the whole batch's in
   * one query for the whole view, only the products named for a decision (which must not read a batch's
   * 2,000 products: 2 ms p95 against 12 on the review bench).
   */
  const sourcesOf = (batch: Batch, whole: boolean) => {
    const heroUrl = (product: Product | null) => {
      const hero = product?.photos[0];
      return hero?.path ? files.url(hero.path) : (hero?.url ?? null);
    };
    const known = new Map<string, string | null>(
      whole ? store.batches.products(batch.id).map((product) => [product.id, heroUrl(product)]) : [],
    );
    return (productId: string): string | null => {
      if (!known.has(productId)) known.set(productId, heroUrl(store.batches.product(productId)));
      return known.get(productId)!;
    };
  };

  /** What one answer looks at once: the previews on disk, and the products' source photos. */
  const lookup = (batch: Batch, whole: boolean) => ({
    present: previews.presence(),
    sourceOf: sourcesOf(batch, whole),
  });

  /** One result as Review shows it. */
  const view = (batch: Batch, row: ReviewRow, seen: ReturnType<typeof lookup>): ReviewItemView => {
    const { present, sourceOf } = seen;
    const original = join(batch.libraryDir, row.path);
    const thumbnailUrl = row.thumbnailPath ? files.url(join(batch.libraryDir, row.thumbnailPath)) : null;
    return {
      id: row.assetId,
      productId: row.productId,
      productName: row.productName,
      position: row.position,
      kind: row.kind,
      style: row.style,
      index: row.index,
      url: files.url(original),
      file: row.path.split('/').slice(1).join('/'),
      thumbnailUrl,
      sourceUrl: sourceOf(row.productId),
      ...previewUrls(row, original, thumbnailUrl, present),
      flag: row.flag,
      stars: row.stars,
      rejectReason: row.rejectReason,
      reviewed: isReviewed(row),
    };
  };

  /** These rows of the batch, in the order asked, refusing ids that are not reviewable results of it. */
  const rowsOf = (batch: Batch, ids: readonly number[]): ReviewRow[] => {
    const byId = new Map(review.itemsOf(batch.id, ids).map((row) => [row.assetId as number, row]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'not_found',
        `Batch ${batch.id} has no result to review with id ${missing.join(', ')}.`,
      );
    }
    return ids.map((id) => byId.get(id)!);
  };

  /** Writes the decisions, remembers the step for undo, and answers with the changed items as they are now. */
  const commit = (batch: Batch, before: Decision[], after: Decision[]): ReviewDecided => {
    review.apply(after);
    history.record(batch.id, before, after);
    return decided(
      batch,
      after.map((decision) => decision.assetId),
    );
  };

  const decided = (batch: Batch, ids: readonly AssetId[]): ReviewDecided => {
    const seen = lookup(batch, false);
    return {
      items: review.itemsOf(batch.id, ids).map((row) => view(batch, row, seen)),
      canUndo: history.canUndo(batch.id),
      canRedo: history.canRedo(batch.id),
    };
  };

  const replay = (batchId: string, decisions: (id: BatchId) => Decision[] | null): ReviewDecided => {
    const batch = requireBatch(store, batchId);
    const step = decisions(batch.id);
    if (!step) return decided(batch, []);
    review.apply(step);
    return decided(
      batch,
      step.map((decision) => decision.assetId),
    );
  };

  return {
    'review:get': async ({ batchId, filter, page }) => {
      const batch = requireBatch(store, batchId);
      const rows = review.items(batch.id);
      const matching = rows.filter((row) => matchesReviewFilter(row, filter ?? {}));
      // Only the page is made into views (URLs, source photos): the counts need every row, the answer not.
      const answered = page ? matching.slice(page.offset, pageEnd(matching, page)) : matching;
      const seen = lookup(batch, answered.length > FEW_PRODUCTS_ITEMS);
      return {
        batchId: batch.id,
        items: answered.map((row) => view(batch, row, seen)),
        counts: countsOf(rows),
        canUndo: history.canUndo(batch.id),
        canRedo: history.canRedo(batch.id),
        matching: matching.length,
      };
    },
    'review:decide': async ({ batchId, itemIds, change }) => {
      const batch = requireBatch(store, batchId);
      const rows = rowsOf(batch, itemIds);
      const before = review.decisions(rows.map((row) => row.assetId));
      return commit(
        batch,
        before,
        before.map((decision) => changed(decision, change)),
      );
    },
    'review:keep': async ({ batchId, itemId }) => {
      const batch = requireBatch(store, batchId);
      const kept = rowsOf(batch, [itemId])[0]!;
      // The others of its product and kind: "keep this shot, reject the rest of this product's shots".
      const others = review
        .productItems(batch.id, kept.productId)
        .filter(
          (row) => row.productId === kept.productId && row.kind === kept.kind && row.assetId !== kept.assetId,
        );
      const before = review.decisions([kept.assetId, ...others.map((row) => row.assetId)]);
      const after = before.map((decision) =>
        changed(decision, decision.assetId === kept.assetId ? { flag: 'picked' } : { flag: 'rejected' }),
      );
      return commit(batch, before, after);
    },
    'review:undo': async ({ batchId }) => replay(batchId, (id) => history.undo(id)),
    'review:redo': async ({ batchId }) => replay(batchId, (id) => history.redo(id)),
  };
}
