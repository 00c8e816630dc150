import { join } from 'node:path';
import type { reviewChannels } from '../../shared/contract/review.ts';
import type {
  ReviewBatchRef,
  ReviewCounts,
  ReviewDecided,
  ReviewFilter,
  ReviewItemView,
  ReviewPage,
  ReviewProductView,
  ReviewScope,
  ReviewView,
} from '../../shared/models.ts';
import { isReviewed, matchesReviewFilter } from '../../shared/review-filter.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { AssetId, BatchId, ProductId } from '../queue/ids.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, Product } from '../queue/types.ts';
import { changed, countsOf } from './decide.ts';
import { focusPoints, setFocus } from './focus-store.ts';
import type { ResultPreviews } from './previews.ts';
import { type ProductKey, productKeyLabel } from './product-key.ts';
import type { ReviewHistory, ScopeKey } from './review-history.ts';
import type { Decision, ReviewRow, ReviewStore } from './review-store.ts';
import { SameProducts } from './same-product.ts';

// Review, through the map: the results of a batch with their decisions, filtered and counted, and the
// decisions themselves (on one result or a selection, "keep this one", undo and redo), each committed as it
// is made. The same for one product across every batch that shot it (its scope: see review/product-key.ts):
// a decision is on a result wherever it is seen, so both views show it; undo and redo go through the steps
// taken in the scope they are asked in.

/** Batches newest first, as the products' view lists their results (ties in the order of their ids). */
function newestFirst(a: { id: string; createdAt: number }, b: { id: string; createdAt: number }): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

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
  ctx: AppContext & {
    store: QueueStore;
    review: ReviewStore;
    reviewHistory: ReviewHistory;
    previews: ResultPreviews;
  },
): HandlersOf<typeof reviewChannels> {
  const { store, review, reviewHistory: history, files, previews } = ctx;
  const sameProducts = new SameProducts(store.db);
  /**
   * The counts of a scope's results, and the results each filter keeps, per read of them: a batch's rows
   * are the same array until a decision or another write (review-store.ts), so the view's pages after the
   * first, and a look again, do not count and filter 8,000 results anew.
   */
  const countsByRows = new WeakMap<readonly ReviewRow[], ReviewCounts>();
  const matchingByRows = new WeakMap<readonly ReviewRow[], Map<string, readonly ReviewRow[]>>();
  const countsFor = (rows: readonly ReviewRow[]): ReviewCounts => {
    const known = countsByRows.get(rows);
    if (known) return known;
    const counts = countsOf(rows);
    countsByRows.set(rows, counts);
    return counts;
  };
  const matchingFor = (rows: readonly ReviewRow[], filter: ReviewFilter): readonly ReviewRow[] => {
    const byFilter = matchingByRows.get(rows) ?? new Map<string, readonly ReviewRow[]>();
    matchingByRows.set(rows, byFilter);
    const key = JSON.stringify(filter);
    let matching = byFilter.get(key);
    if (!matching) {
      matching =
        Object.keys(filter).length === 0 ? rows : rows.filter((row) => matchesReviewFilter(row, filter));
      byFilter.set(key, matching);
    }
    return matching;
  };

  /**
   * A shot's previews, or its original while they are missing: answering at once matters more than one
   * look at a full-size file, since making the previews of a whole batch whose cache was cleared takes
   * minutes. The missing ones are made again in the background and appear from the next answer on. A
   * video's are of its poster frame (video-frame.ts); while they are missing, its thumbnail from the
   * service where there is one, else none (the grid says "Video" and its length): never the video itself,
   * which an image cannot show.
   */
  const previewUrls = (
    row: ReviewRow,
    original: string,
    thumbnailUrl: string | null,
    present: (sha256: string) => boolean,
  ): Pick<ReviewItemView, 'gridUrl' | 'screenUrl' | 'posterUrl'> => {
    const video = row.kind === 'video';
    if (row.sha256 && present(row.sha256)) {
      const grid = files.url(previews.path('grid', row.sha256));
      const screen = files.url(previews.path('screen', row.sha256));
      return video
        ? { gridUrl: grid, screenUrl: null, posterUrl: screen }
        : { gridUrl: grid, screenUrl: screen, posterUrl: null };
    }
    // Guess: a result without a sha256 (none is recorded without one today) keeps showing its original.
    if (row.sha256) void previews.rebuild(original, row.sha256, video ? 'video' : 'image');
    if (video) return { gridUrl: thumbnailUrl, screenUrl: null, posterUrl: thumbnailUrl };
    const url = files.url(original);
    return { gridUrl: url, screenUrl: url, posterUrl: null };
  };

  const photoUrl = (photo: Product['photos'][number] | undefined) =>
    photo?.path ? files.url(photo.path) : (photo?.url ?? null);
  const heroUrl = (product: Product | null) => photoUrl(product?.photos[0]);

  /**
   * Each product's hero photo as it was sent, for the A/B wipe, read once per answer: the whole batch's in
   * one query for the whole view, else only the products the answer names, in one query too (a decision
   * must not read a batch's 2,000 products: 2 ms p95 against 12 on the review bench; and the view's first
   * page names a hundred or so, each read on its own before).
   */
  const sourcesOf = (batch: Batch, rows: readonly ReviewRow[], whole: boolean) => {
    const products = whole
      ? store.batches.products(batch.id)
      : store.batches.productsNamed([...new Set(rows.map((row) => row.productId))]);
    const known = new Map<string, string | null>(products.map((product) => [product.id, heroUrl(product)]));
    return (productId: string): string | null => known.get(productId) ?? null;
  };

  /** What one answer looks at once: the previews on disk, the products' source photos, the focus points. */
  const lookup = (batch: Batch, rows: readonly ReviewRow[], whole: boolean) => ({
    present: previews.presence(),
    sourceOf: sourcesOf(batch, rows, whole),
    focus: focusPoints(store.db),
  });

  /** One result as Review shows it. */
  const view = (libraryDir: string, row: ReviewRow, seen: ReturnType<typeof lookup>): ReviewItemView => {
    const { present, sourceOf, focus } = seen;
    const original = join(libraryDir, row.path);
    const thumbnailUrl = row.thumbnailPath ? files.url(join(libraryDir, row.thumbnailPath)) : null;
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
      madeAt: row.madeAt,
      durationSeconds: row.durationSeconds,
      flag: row.flag,
      stars: row.stars,
      rejectReason: row.rejectReason,
      label: row.label,
      reviewed: isReviewed(row),
      focus: focus.get(row.assetId) ?? null,
    };
  };

  /** Whose results an answer is about: one batch, or one product in every batch that shot it. */
  interface Scope {
    /** Whose undo and redo steps these are. */
    history: ScopeKey;
    /** How a refusal names it. */
    name: string;
    /** Every reviewable result, in the scope's order (shared: never changed). */
    rows(): readonly ReviewRow[];
    /** These results, in the scope's order; ids that are no reviewable result of the scope are left out. */
    rowsNamed(ids: readonly number[]): ReviewRow[];
    /** A product's results in the scope: its batch's in a batch's view, every batch's in its own. */
    productRows(productId: ProductId): ReviewRow[];
    /** The rows as Review shows them; `whole` when they are all of the scope's (looked up in one go). */
    views(rows: readonly ReviewRow[], whole: boolean): ReviewItemView[];
    /** What the answer to `review:get` says about the scope. */
    about(): Pick<ReviewView, 'batchId' | 'product' | 'brandName'>;
  }

  const batchScope = (batch: Batch): Scope => ({
    history: `batch:${batch.id}`,
    name: `Batch ${batch.id}`,
    rows: () => review.items(batch.id),
    rowsNamed: (ids) => review.itemsOf(batch.id, ids),
    productRows: (productId) => review.productItems(batch.id, productId),
    views: (rows, whole) => {
      const seen = lookup(batch, rows, whole);
      return rows.map((row) => view(batch.libraryDir, row, seen));
    },
    about: () => ({ batchId: batch.id, brandName: store.batches.brandName(batch.id) }),
  });

  /** The key these words name, refused when they name no product or several. */
  const keyNamedBy = (words: string): ProductKey => {
    const keys = sameProducts.keysNamedBy(words);
    if (keys.length === 0) throw new AppError('not_found', `No batch shot a product named ${words}.`);
    if (keys.length > 1) {
      throw new AppError(
        'bad_request',
        `${words} names ${keys.length} products: ${keys.map(productKeyLabel).join(', ')}. Name one by its folder.`,
      );
    }
    return keys[0]!;
  };

  const productScope = (words: string): Scope => {
    const key = keyNamedBy(words);
    const products = sameProducts.of(key);
    if (products.length === 0) {
      throw new AppError('not_found', `No batch shot the product ${productKeyLabel(key)}.`);
    }
    const batches = new Map<BatchId, Batch>();
    for (const product of products) {
      if (!batches.has(product.batchId)) batches.set(product.batchId, requireBatch(store, product.batchId));
    }
    // Newest batch first: the designer comes here to weigh what was just made against what was made before.
    products.sort((a, b) => newestFirst(batches.get(a.batchId)!, batches.get(b.batchId)!));
    const refs = new Map<BatchId, ReviewBatchRef>(
      [...batches.values()].map((batch) => [
        batch.id,
        { id: batch.id, name: batch.name, createdAt: batch.createdAt },
      ]),
    );
    const heroes = new Map(products.map((product) => [product.id as string, heroUrl(product)]));
    const sourceOf = (productId: string) => heroes.get(productId) ?? null;
    return {
      history: `product:${key}`,
      name: `Product ${productKeyLabel(key)}`,
      rows: () => review.acrossBatches(products),
      rowsNamed: (ids) => review.acrossBatches(products, ids),
      productRows: () => review.acrossBatches(products),
      views: (rows) => {
        const seen = { present: previews.presence(), sourceOf, focus: focusPoints(store.db) };
        return rows.map((row) => ({
          ...view(batches.get(row.batchId)!.libraryDir, row, seen),
          batch: refs.get(row.batchId)!,
        }));
      },
      about: () => ({
        batchId: null,
        brandName: null,
        product: productView(key, products, [...refs.values()]),
      }),
    };
  };

  const productView = (
    key: ProductKey,
    products: readonly Product[],
    batches: ReviewBatchRef[],
  ): ReviewProductView => {
    const sourceUrls = new Map<string, string>();
    for (const photo of products.flatMap((product) => product.photos)) {
      const url = photoUrl(photo);
      const same = photo.hash ?? photo.url ?? photo.path;
      if (url && same && !sourceUrls.has(same)) sourceUrls.set(same, url);
    }
    return {
      key,
      label: productKeyLabel(key),
      name: products[0]!.name,
      sourceUrls: [...sourceUrls.values()],
      batches: batches.sort(newestFirst),
    };
  };

  const scopeOf = (scope: ReviewScope): Scope =>
    scope.batchId !== undefined
      ? batchScope(requireBatch(store, scope.batchId))
      : productScope(scope.product);

  /** These rows of the scope, in the order asked, refusing ids that are not reviewable results of it. */
  const rowsOf = (scope: Scope, ids: readonly number[]): ReviewRow[] => {
    const byId = new Map(scope.rowsNamed(ids).map((row) => [row.assetId as number, row]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      throw new AppError('not_found', `${scope.name} has no result to review with id ${missing.join(', ')}.`);
    }
    return ids.map((id) => byId.get(id)!);
  };

  /** Writes the decisions, remembers the step for undo, and answers with the changed items as they are now. */
  const commit = (scope: Scope, before: Decision[], after: Decision[]): ReviewDecided => {
    review.apply(after);
    history.record(scope.history, before, after);
    return decided(
      scope,
      after.map((decision) => decision.assetId),
    );
  };

  const decided = (scope: Scope, ids: readonly AssetId[]): ReviewDecided => ({
    items: scope.views(scope.rowsNamed(ids), false),
    canUndo: history.canUndo(scope.history),
    canRedo: history.canRedo(scope.history),
  });

  const replay = (asked: ReviewScope, decisions: (scope: ScopeKey) => Decision[] | null): ReviewDecided => {
    const scope = scopeOf(asked);
    const step = decisions(scope.history);
    if (!step) return decided(scope, []);
    review.apply(step);
    return decided(
      scope,
      step.map((decision) => decision.assetId),
    );
  };

  return {
    'review:get': async ({ filter, page, ...asked }) => {
      const scope = scopeOf(asked);
      const rows = scope.rows();
      const matching = matchingFor(rows, filter ?? {});
      // Only the page is made into views (URLs, source photos): the counts need every row, the answer not.
      const answered = page ? matching.slice(page.offset, pageEnd(matching, page)) : matching;
      return {
        ...scope.about(),
        items: scope.views(answered, answered.length > FEW_PRODUCTS_ITEMS),
        counts: countsFor(rows),
        canUndo: history.canUndo(scope.history),
        canRedo: history.canRedo(scope.history),
        matching: matching.length,
      };
    },
    'review:decide': async ({ resultIds, change, ...asked }) => {
      const scope = scopeOf(asked);
      const rows = rowsOf(scope, resultIds);
      const before = review.decisions(rows.map((row) => row.assetId));
      return commit(
        scope,
        before,
        before.map((decision) => changed(decision, change)),
      );
    },
    'review:keep': async ({ resultId, ...asked }) => {
      const scope = scopeOf(asked);
      const kept = rowsOf(scope, [resultId])[0]!;
      // The others of its product and kind: "keep this shot, reject the rest of this product's shots" (in a
      // product's view, its shots of every batch).
      const others = scope
        .productRows(kept.productId)
        .filter((row) => row.kind === kept.kind && row.assetId !== kept.assetId);
      const before = review.decisions([kept.assetId, ...others.map((row) => row.assetId)]);
      const after = before.map((decision) =>
        changed(decision, decision.assetId === kept.assetId ? { flag: 'picked' } : { flag: 'rejected' }),
      );
      return commit(scope, before, after);
    },
    'review:setFocus': async ({ resultId, focus, ...asked }) => {
      const [row] = rowsOf(scopeOf(asked), [resultId]);
      setFocus(store.db, row!.assetId, focus, ctx.now());
      return { resultId, focus };
    },
    'review:undo': async (asked) => replay(asked, (scope) => history.undo(scope)),
    'review:redo': async (asked) => replay(asked, (scope) => history.redo(scope)),
  };
}
