import type { ReviewChange, ReviewCounts } from '../../shared/models.ts';
import { isReviewed } from '../../shared/review-filter.ts';
import type { Decision, ReviewRow } from './review-store.ts';

// The rules of a decision, apart from storage: a reason means rejected, a pick drops the reason, no flag
// drops it too; and the counts of the Review view, over the whole batch. (The filters are shared with the
// renderer: shared/review-filter.ts.)

/** The decision a change makes of the one there was. */
export function changed(before: Decision, change: ReviewChange): Decision {
  let flag = change.flag === undefined ? before.flag : change.flag;
  let rejectReason = before.rejectReason;
  if (change.rejectReason !== undefined) {
    rejectReason = change.rejectReason;
    if (rejectReason !== null) flag = 'rejected';
  }
  if (flag !== 'rejected') rejectReason = null;
  const stars = change.stars === undefined ? before.stars : change.stars;
  return { assetId: before.assetId, flag, stars, rejectReason };
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
  };
  for (const row of rows) {
    if (isReviewed(row)) counts.reviewed++;
    if (row.flag === 'picked') counts.picked++;
    else if (row.flag === 'rejected') counts.rejected++;
    else counts.unflagged++;
    if (row.kind === 'shot') counts.shots++;
    else counts.videos++;
    for (let stars = 0; stars <= row.stars; stars++) counts.atLeastStars[stars]!++;
    counts.byStyle[row.style] = (counts.byStyle[row.style] ?? 0) + 1;
  }
  return counts;
}
