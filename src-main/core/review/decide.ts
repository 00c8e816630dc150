import type { ReviewChange, ReviewCounts } from '../../shared/models.ts';
import { applyReviewChange } from '../../shared/review-change.ts';
import { isReviewed } from '../../shared/review-filter.ts';
import type { Decision, ReviewRow } from './review-store.ts';

// The rules of a decision, apart from storage, and the counts of the Review view, over the whole batch. (The
// rule and the filters are shared with the renderer: shared/review-change.ts, shared/review-filter.ts.)

/** The decision a change makes of the one there was. */
export function changed(before: Decision, change: ReviewChange): Decision {
  return applyReviewChange(before, change);
}

export function countsOf(rows: readonly ReviewRow[]): ReviewCounts {
  const counts: ReviewCounts = {
    total: rows.length,
    reviewed: 0,
    picked: 0,
    rejected: 0,
    unflagged: 0,
    shots: 0,
    videos: 0,
    atLeastStars: [0, 0, 0, 0, 0, 0],
    byStyle: {},
    byLabel: {},
  };
  for (const row of rows) {
    if (isReviewed(row)) counts.reviewed++;
    if (row.flag === 'picked') counts.picked++;
    else if (row.flag === 'rejected') counts.rejected++;
    else counts.unflagged++;
    if (row.kind === 'shot') counts.shots++;
    else counts.videos++;
    for (let stars = 0; stars <= row.stars; stars++) counts.atLeastStars[stars]!++;
    if (row.label) counts.byLabel[row.label] = (counts.byLabel[row.label] ?? 0) + 1;
    if (row.style) counts.byStyle[row.style] = (counts.byStyle[row.style] ?? 0) + 1;
  }
  return counts;
}
