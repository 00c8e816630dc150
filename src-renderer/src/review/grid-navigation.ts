import type { ReviewItemView } from '../../../src-main/shared/models.ts';

// Moving through Review's results in two dimensions, as pure functions of where the active result is: a row
// up or down in a grid laid out in `columns` (the grid's, or survey's and compare's panes), or to the next or
// previous product (the loupe, where there is no row above or below). The store applies the answer.

/**
 * The index a row up (`by` -1) or down (1) from `index` lands on in a grid of `count` results laid out in
 * `columns`: the same column, or the last result when the row below is shorter; the same index at the top or
 * the bottom row (as Lightroom's grid, which neither wraps nor jumps).
 */
export function rowStep(index: number, count: number, columns: number, by: 1 | -1): number {
  if (count === 0 || index < 0) return index;
  const width = Math.max(1, Math.floor(columns));
  const target = index + by * width;
  if (target < 0) return index;
  if (target >= count) {
    // The last row is shorter: land on its last result when there is a row below at all.
    const lastRow = Math.floor((count - 1) / width);
    return Math.floor(index / width) < lastRow ? count - 1 : index;
  }
  return target;
}

/**
 * The index of the first result of the next product (`by` 1) or of the previous one (-1), in the list's
 * order; at the first result of a product, -1 goes to the previous product's first. The same index when there
 * is none that way.
 */
export function productStep(
  items: readonly Pick<ReviewItemView, 'productId'>[],
  index: number,
  by: 1 | -1,
): number {
  const current = items[index];
  if (!current) return index;
  if (by === 1) {
    const next = items.findIndex((item, at) => at > index && item.productId !== current.productId);
    return next < 0 ? index : next;
  }
  // Back to the start of this product's run, then to the start of the run before it.
  let start = index;
  while (start > 0 && items[start - 1]?.productId === current.productId) start--;
  if (start === 0) return index;
  let previous = start - 1;
  const product = items[previous]?.productId;
  while (previous > 0 && items[previous - 1]?.productId === product) previous--;
  return previous;
}
