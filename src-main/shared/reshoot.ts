import type { ReviewItemView } from './models.ts';

// Which products a reshoot is offered for, once for core (reshoot:quote) and the renderer (the Review
// button's count, which follows each decision within the frame): a product with at least one shot, every
// one of them rejected. Its videos do not count: a video is made from shots, not the other way round.

type Decided = Pick<ReviewItemView, 'productId' | 'kind' | 'flag'>;

/** The ids of the products whose shots are all rejected, in the order the items come. */
export function allRejectedProducts(items: readonly Decided[]): string[] {
  const allRejected = new Map<string, boolean>();
  for (const item of items) {
    if (item.kind !== 'shot') continue;
    allRejected.set(item.productId, (allRejected.get(item.productId) ?? true) && item.flag === 'rejected');
  }
  return [...allRejected].filter(([, rejected]) => rejected).map(([productId]) => productId);
}
