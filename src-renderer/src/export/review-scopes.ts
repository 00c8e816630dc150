import { noun } from '../../../src-main/shared/counted.ts';
import type { ExportScope, ReviewItemView, ReviewScope } from '../../../src-main/shared/models.ts';
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
  const whole: ExportScope =
    scope.batchId !== undefined ? { batchIds: [scope.batchId] } : { product: scope.product };
  const selectedIds = items.filter((item) => selected.has(item.id)).map((item) => item.id);
  const choices: ScopeChoice[] = [];
  if (selectedIds.length > 0) {
    choices.push({
      key: 'selection',
      label: `The ${selectedIds.length} selected ${noun(selectedIds.length, 'result')}`,
      scope: { ...whole, resultIds: selectedIds },
    });
  }
  if (scope.batchId === undefined) {
    choices.push({
      key: 'product',
      label: `${productLabel ?? 'This product'}, in all batches`,
      scope: whole,
    });
    return choices;
  }
  choices.push({ key: 'batch', label: 'This batch', scope: whole });
  if (active) {
    choices.push({
      key: 'product',
      label: `${active.productName}, in this batch`,
      scope: {
        ...whole,
        resultIds: items.filter((item) => item.productId === active.productId).map((item) => item.id),
      },
    });
  }
  return choices;
}
