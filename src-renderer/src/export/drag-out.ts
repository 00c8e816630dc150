import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { useExports } from '../stores/exports.ts';
import { useReview } from '../stores/review.ts';

// Review's results dragged out of the window (issue 13, point 9): a tile of the selection drags the whole
// selection, in the order Review shows it; any other tile drags itself. The page only names the results and
// the recipe: main finds the files (or makes them through the recipe) and starts the OS's drag with all of
// them, since a page's own drag can carry one file at most (electron/electron#9019 and its kind).

/** The results a drag from `item` takes: the selection when the item is in it, else the item. */
export function draggedIds(
  item: ReviewItemView,
  selected: ReadonlySet<number>,
  items: readonly ReviewItemView[],
): number[] {
  if (!selected.has(item.id)) return [item.id];
  return items.filter((one) => selected.has(one.id)).map((one) => one.id);
}

export function dragResults(event: React.DragEvent, item: ReviewItemView): void {
  const review = useReview.getState();
  const scope = review.scope;
  if (!scope) return;
  // The page's own drag would carry a URL; the OS's drag of the files replaces it.
  event.preventDefault();
  const resultIds = draggedIds(item, review.selected, review.items);
  const recipe = useExports.getState().dragRecipe;
  api
    .call('export:drag', {
      scope:
        scope.batchId !== undefined
          ? { batchIds: [scope.batchId], resultIds }
          : { product: scope.product, resultIds },
      ...(recipe ? { recipe } : {}),
    })
    .catch((failure: unknown) => useReview.setState({ error: messageOf(failure) }));
}
