import type { ReviewCounts, ReviewItemView } from '../../../src-main/shared/models.ts';
import { isReviewed } from '../../../src-main/shared/review-filter.ts';

// The counts after some results changed, from the counts before and those results as they were and are:
// a decision costs what it names, not a pass over the batch's 8,000 results, and it holds while only the
// first page of them has arrived (the counts came whole with it).

type Counted = Pick<ReviewItemView, 'flag' | 'stars' | 'label'>;

function add(counts: ReviewCounts, item: Counted, sign: 1 | -1): void {
  if (isReviewed(item)) counts.reviewed += sign;
  if (item.flag === 'picked') counts.picked += sign;
  else if (item.flag === 'rejected') counts.rejected += sign;
  else counts.unflagged += sign;
  for (let stars = 0; stars <= item.stars; stars++) counts.atLeastStars[stars]! += sign;
  if (item.label) counts.byLabel[item.label] = (counts.byLabel[item.label] ?? 0) + sign;
}

export function recount(
  counts: ReviewCounts,
  changes: ReadonlyArray<{ before: Counted; after: Counted }>,
): ReviewCounts {
  const next = { ...counts, atLeastStars: [...counts.atLeastStars], byLabel: { ...counts.byLabel } };
  for (const { before, after } of changes) {
    add(next, before, -1);
    add(next, after, 1);
  }
  return next;
}
