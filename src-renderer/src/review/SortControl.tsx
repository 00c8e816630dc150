import { useEffect } from 'react';
import { useReviewMemory } from './review-memory.ts';
import { forgetSortOrder, isReviewSort, REVIEW_SORTS, SORT_LABELS } from './sort.ts';

/**
 * Review's sort, remembered across visits (review/review-memory.ts); the keys step in its order. Review opened
 * again takes the order anew, with the decisions made since.
 */
export function SortControl() {
  const { sort, setSort } = useReviewMemory();
  useEffect(() => forgetSortOrder(), []);
  return (
    <label className="review-filter">
      Sort
      <select
        value={sort}
        onChange={(event) => {
          if (!isReviewSort(event.target.value)) return;
          forgetSortOrder();
          setSort(event.target.value);
        }}
      >
        {REVIEW_SORTS.map((option) => (
          <option key={option} value={option}>
            {SORT_LABELS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
