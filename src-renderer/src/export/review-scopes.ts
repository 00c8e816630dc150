import type { ReviewItemView, ReviewScope } from '../../../src-main/shared/models.ts';
import type { ScopeChoice } from './ExportDialog.tsx';

// Whose results Review's export dialog offers: the selection, the batch, the product in view, or the product
// in every batch, from what Review has on screen.

/** Review's choices, the selection first when there is one: what the designer is looking at is what goes. */
export function reviewScopes(
  scope: ReviewScope,
  items: readonly ReviewItemView[],
  selected: ReadonlySet<number>,
  active: ReviewItemView | null,
  productLabel: string | null,
): ScopeChoice[] {
  const choices: ScopeChoice[] = [];
  const selectedIds = items.filter((item) => selected.has(item.id)).map((item) => item.id);
  if (scope.batchId !== undefined) {
    const batchIds = [scope.batchId];
    if (selectedIds.length > 0) {
      choices.push({
        key: 'selection',
        label: `The ${selectedIds.length} selected result${selectedIds.length === 1 ? '' : 's'}`,
        scope: { batchIds, itemIds: selectedIds },
      });
    }
    choices.push({ key: 'batch', label: 'This batch', scope: { batchIds } });
    if (active) {
      choices.push({
        key: 'product',
        label: `${active.productName}, in this batch`,
        scope: {
          batchIds,
          itemIds: items.filter((item) => item.productId === active.productId).map((item) => item.id),
        },
      });
    }
  } else {
    if (selectedIds.length > 0) {
      choices.push({
        key: 'selection',
        label: `The ${selectedIds.length} selected result${selectedIds.length === 1 ? '' : 's'}`,
        scope: { product: scope.product, itemIds: selectedIds },
      });
    }
    choices.push({
      key: 'product',
      label: `${productLabel ?? 'This product'}, in all batches`,
      scope: { product: scope.product },
    });
  }
  return choices;
}
