import { useState } from 'react';
import type { ReviewItemView, ReviewScope } from '../../../src-main/shared/models.ts';
import { useExports } from '../stores/exports.ts';
import { useReview } from '../stores/review.ts';
import { ExportDialog, type ScopeChoice } from './ExportDialog.tsx';

// Where the export dialog opens from: the Batch screen (its batch) and Review (the batch, the product in
// view, or the selection); and Review's choice of what its results are dragged out as.

function ExportOpener({ scopes, disabled }: { scopes: () => ScopeChoice[]; disabled?: boolean }) {
  const [open, setOpen] = useState<ScopeChoice[] | null>(null);
  // The sheet gives the keyboard back to this button as it closes (components/ModalSheet.tsx).
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => setOpen(scopes())}>
        Export…
      </button>
      {open && <ExportDialog scopes={open} onClose={() => setOpen(null)} />}
    </>
  );
}

export function BatchExportButton({ batchId }: { batchId: string }) {
  return (
    <ExportOpener scopes={() => [{ key: 'batch', label: 'This batch', scope: { batchIds: [batchId] } }]} />
  );
}

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

export function ReviewExportButton({ active }: { active: ReviewItemView | null }) {
  const total = useReview((state) => state.counts?.total ?? 0);
  return (
    <ExportOpener
      disabled={total === 0}
      scopes={() => {
        const review = useReview.getState();
        return review.scope
          ? reviewScopes(review.scope, review.items, review.selected, active, review.product?.name ?? null)
          : [];
      }}
    />
  );
}

/** What Review's results are dragged out as: the files as they are, or made through a recipe first. */
export function DragOutChoice() {
  const recipes = useExports((state) => state.recipes);
  const dragRecipe = useExports((state) => state.dragRecipe);
  return (
    <label className="drag-out-choice">
      Drag out as
      <select
        value={dragRecipe ?? ''}
        onFocus={() => {
          if (recipes.length === 0)
            void useExports
              .getState()
              .load()
              .catch(() => {});
        }}
        onChange={(event) => useExports.getState().setDragRecipe(event.target.value || null)}
      >
        <option value="">The files as they are</option>
        {recipes.map((recipe) => (
          <option key={recipe.id} value={recipe.id}>
            {recipe.name}
          </option>
        ))}
      </select>
    </label>
  );
}
