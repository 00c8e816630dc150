import { useEffect } from 'react';
import { useReview } from '../stores/review.ts';
import { useReviewMemory } from './review-memory.ts';

/** Remembers the active result of the scope under review, each time it changes, while Review is open. */
export function useRememberedPosition(): void {
  useEffect(
    () =>
      useReview.subscribe((state, before) => {
        // A new scope may open on the same result (a product across batches, from its batch's review).
        const moved = state.activeId !== before.activeId || state.scope !== before.scope;
        if (state.scope && state.activeId !== null && moved)
          useReviewMemory.getState().remember(state.scope, state.activeId);
      }),
    [],
  );
}
