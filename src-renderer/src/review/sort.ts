import type { ReviewItemView } from '../../../src-main/shared/models.ts';

// Review's sort: the batch's order (products as they were added, each one's results as they were made), or
// by stars, by the time made, or by product name. The order is taken when the sort is chosen and as results
// arrive, not again after each decision: a star given under "by stars" leaves the result where it is, so the
// grid does not jump under the keys and auto-advance goes on to the result after it (darktable users report
// such jumps); choosing a sort in the menu, or opening Review again, takes the order anew.

export const REVIEW_SORTS = ['batch', 'stars', 'time', 'product'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const SORT_LABELS: Record<ReviewSort, string> = {
  batch: 'Batch order',
  stars: 'Stars (most first)',
  time: 'Time made (oldest first)',
  product: 'Product name',
};

export function isReviewSort(value: unknown): value is ReviewSort {
  return typeof value === 'string' && (REVIEW_SORTS as readonly string[]).includes(value);
}

type Sortable = Pick<ReviewItemView, 'id' | 'stars' | 'madeAt' | 'productName'>;

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** How two results compare under a sort; equal ones keep the batch's order (the sort is stable). */
function comparerOf(sort: ReviewSort): (a: Sortable, b: Sortable) => number {
  switch (sort) {
    case 'batch':
      return () => 0;
    case 'stars':
      return (a, b) => b.stars - a.stars;
    case 'time':
      return (a, b) => a.madeAt - b.madeAt;
    case 'product':
      return (a, b) => byName.compare(a.productName, b.productName);
  }
}

/** The ids of `items` (in the batch's order) in the sort's order. */
export function sortedIds(items: readonly Sortable[], sort: ReviewSort): number[] {
  const compare = comparerOf(sort);
  return items
    .map((item, at) => ({ item, at }))
    .sort((a, b) => compare(a.item, b.item) || a.at - b.at)
    .map(({ item }) => item.id);
}

/** Takes the order again at the next look, as a sort chosen anew does (after decisions under it). */
export function forgetSortOrder(): void {
  taken = null;
}

/** The order last taken, and what it was taken of. */
let taken: { sort: ReviewSort; count: number; first: number; last: number; ids: number[] } | null = null;

/**
 * `items` (the batch's order) in the sort's order, as taken when the sort or the set of results last changed:
 * the same results with a decision replaced keep their places. A result the order does not know yet (none,
 * since the set changing takes it again) would go last.
 */
export function inSortOrder<T extends Sortable>(items: readonly T[], sort: ReviewSort): readonly T[] {
  if (sort === 'batch') return items;
  const first = items[0]?.id ?? -1;
  const last = items.at(-1)?.id ?? -1;
  if (
    !taken ||
    taken.sort !== sort ||
    taken.count !== items.length ||
    taken.first !== first ||
    taken.last !== last
  ) {
    taken = { sort, count: items.length, first, last, ids: sortedIds(items, sort) };
  }
  const byId = new Map(items.map((item) => [item.id, item]));
  const ordered: T[] = [];
  for (const id of taken.ids) {
    const item = byId.get(id);
    if (item) {
      ordered.push(item);
      byId.delete(id);
    }
  }
  ordered.push(...byId.values());
  return ordered;
}
