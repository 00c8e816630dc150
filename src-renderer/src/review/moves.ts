import { panesOf, useReview, visibleItems } from '../stores/review.ts';
import { productStep, rowStep } from './grid-navigation.ts';
import { useReviewLayout } from './layout.ts';

// ↑ and ↓: a row up or down in the grid (by the columns it is laid out in), from pane to pane in survey and
// compare (by theirs), and to the previous or next product in the loupe and the wipe, which show one result.

export function moveVertically(by: 1 | -1): void {
  const review = useReview.getState();
  const visible = visibleItems(review);
  const { gridColumns, paneColumns } = useReviewLayout.getState();
  const steps = review.mode === 'compare' || review.mode === 'survey' ? panesOf(visible, review) : visible;
  const at = steps.findIndex((item) => item.id === review.activeId);
  if (at < 0) return;
  const to =
    review.mode === 'grid'
      ? rowStep(at, steps.length, gridColumns, by)
      : review.mode === 'compare' || review.mode === 'survey'
        ? rowStep(at, steps.length, paneColumns, by)
        : productStep(steps, at, by);
  const next = steps[to];
  if (next && to !== at) review.activate(next.id);
}
