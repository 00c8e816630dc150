import { useState } from 'react';
import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { useExports } from '../stores/exports.ts';
import { useReview } from '../stores/review.ts';
import { ExportDialog, type ScopeChoice } from './ExportDialog.tsx';
import { reviewScopes } from './review-scopes.ts';

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
