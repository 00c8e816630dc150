import { describe, expect, it } from 'vitest';
import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { reviewScopes } from '../../../src-renderer/src/export/review-scopes.ts';

// Whose results Review's export dialog offers, the selection first: in a batch's review the selection, the
// batch and the product in view (its results in this batch only); in a product's review across batches the
// selection and the product everywhere.

const item = (id: number, productId: string, productName: string) =>
  ({ id, productId, productName }) as ReviewItemView;
const items = [
  item(1, 'p-hat', 'Hat'),
  item(2, 'p-hat', 'Hat'),
  item(3, 'p-cap', 'Cap'),
  item(4, 'p-hat', 'Hat'),
];

describe('reviewScopes', () => {
  it("offers a batch's selection, the batch, and the product in view within it", () => {
    expect(reviewScopes({ batchId: 'b1' }, items, new Set([3, 1]), items[1]!, null)).toEqual([
      { key: 'selection', label: 'The 2 selected results', scope: { batchIds: ['b1'], resultIds: [1, 3] } },
      { key: 'batch', label: 'This batch', scope: { batchIds: ['b1'] } },
      { key: 'product', label: 'Hat, in this batch', scope: { batchIds: ['b1'], resultIds: [1, 2, 4] } },
    ]);
  });

  it('offers the batch alone with nothing selected and nothing in view', () => {
    expect(reviewScopes({ batchId: 'b1' }, items, new Set(), null, null)).toEqual([
      { key: 'batch', label: 'This batch', scope: { batchIds: ['b1'] } },
    ]);
  });

  it("offers a product's selection and the product in every batch, by its name or in words without one", () => {
    expect(reviewScopes({ product: 'hat' }, items, new Set([2]), items[1]!, 'Hat')).toEqual([
      { key: 'selection', label: 'The 1 selected result', scope: { product: 'hat', resultIds: [2] } },
      { key: 'product', label: 'Hat, in all batches', scope: { product: 'hat' } },
    ]);
    expect(reviewScopes({ product: 'hat' }, items, new Set(), null, null)).toEqual([
      { key: 'product', label: 'This product, in all batches', scope: { product: 'hat' } },
    ]);
  });
});
