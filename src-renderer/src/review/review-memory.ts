import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ReviewScope } from '../../../src-main/shared/models.ts';
import { isReviewSort, type ReviewSort } from './sort.ts';

// What Review remembers across visits and reloads, in this window's local storage: the sort chosen, and the
// result each batch (or product across batches) was left on, so that Review opens there again, as Lightroom
// reopens a folder on the photo last selected, not on the first.

/** Scopes remembered at most: the oldest goes first (a guess; each is a few bytes). */
const REMEMBERED_SCOPES = 200;

interface ReviewMemory {
  sort: ReviewSort;
  /** The result last active, by scope (`scopeKey`), oldest first. */
  positions: Record<string, number>;
  setSort(sort: ReviewSort): void;
  remember(scope: ReviewScope, resultId: number): void;
}

export function scopeKey(scope: ReviewScope): string {
  return scope.product === undefined ? `batch:${scope.batchId}` : `product:${scope.product}`;
}

/** What storage holds, parsed: anything else (an older shape, a hand edit) is left out. */
export function parsedMemory(stored: unknown): Partial<Pick<ReviewMemory, 'sort' | 'positions'>> {
  if (typeof stored !== 'object' || stored === null) return {};
  const sort = 'sort' in stored && isReviewSort(stored.sort) ? stored.sort : undefined;
  const positions: Record<string, number> = {};
  if ('positions' in stored && typeof stored.positions === 'object' && stored.positions !== null) {
    for (const [key, id] of Object.entries(stored.positions)) {
      if (Number.isInteger(id)) positions[key] = id;
    }
  }
  return { ...(sort ? { sort } : {}), positions };
}

export const useReviewMemory = create<ReviewMemory>()(
  persist(
    (set, get) => ({
      sort: 'batch',
      positions: {},
      setSort: (sort) => set({ sort }),
      remember(scope, resultId) {
        const key = scopeKey(scope);
        if (get().positions[key] === resultId) return;
        // Moved to the end: the newest last, so the oldest are the first let go.
        const entries = Object.entries(get().positions)
          .filter(([other]) => other !== key)
          .slice(-(REMEMBERED_SCOPES - 1));
        set({ positions: { ...Object.fromEntries(entries), [key]: resultId } });
      },
    }),
    {
      name: 'adbatch.review',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ sort, positions }) => ({ sort, positions }),
      merge: (stored, current) => ({ ...current, ...parsedMemory(stored) }),
    },
  ),
);

/** The result the scope was left on, if any. */
export function rememberedResult(scope: ReviewScope): number | undefined {
  return useReviewMemory.getState().positions[scopeKey(scope)];
}
