import type { ReviewItemView } from '../../../src-main/shared/models.ts';

// Which results compare and survey show. Compare: the selection (2 to 4), else the active result and the
// next of its product (the previous one at the product's end), never a result of another product, which is
// no candidate for the same slot. Survey: the selection (all of it), else the active result's product.

type Paned = Pick<ReviewItemView, 'id' | 'productId' | 'kind'>;

/** Results of the same product and kind: what compares with what. */
function sameProduct(a: Paned, b: Paned): boolean {
  return a.productId === b.productId && a.kind === b.kind;
}

/** The active result and its candidate in its product: alone when the product has no other. */
export function comparePair<T extends Paned>(visible: readonly T[], at: number): T[] {
  const active = visible[at];
  if (!active) return [];
  const next = visible.slice(at + 1).find((item) => sameProduct(item, active));
  if (next) return [active, next];
  const previous = visible.slice(0, at).findLast((item) => sameProduct(item, active));
  return previous ? [previous, active] : [active];
}

/** Survey's results: the selection when two or more are selected, else the active result's product. */
export function surveyItems<T extends Paned>(
  visible: readonly T[],
  at: number,
  selected: ReadonlySet<number>,
): T[] {
  const active = visible[at];
  if (!active) return [];
  const chosen = visible.filter((item) => selected.has(item.id));
  if (chosen.length >= 2) return chosen;
  return visible.filter((item) => sameProduct(item, active));
}
