import type { ReviewChange, ReviewCounts, ReviewFilter } from '../../shared/models.ts';
import type { Decision, ReviewRow } from './review-store.ts';

// The rules of a decision and of the Review view's filters, apart from storage: a reason means rejected, a
// pick drops the reason, no flag drops it too; filters combine with AND; counts are over the whole batch.

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

export function isReviewed(row: Pick<ReviewRow, 'flag' | 'stars'>): boolean {
  return row.flag !== null || row.stars > 0;
}

export function matches(row: ReviewRow, filter: ReviewFilter): boolean {
  if (filter.flag !== undefined && (row.flag ?? 'none') !== filter.flag) return false;
  if (filter.minStars !== undefined && row.stars < filter.minStars) return false;
  if (filter.reviewed !== undefined && isReviewed(row) !== filter.reviewed) return false;
  if (filter.kind !== undefined && row.kind !== filter.kind) return false;
  if (filter.style !== undefined && row.style !== filter.style) return false;
  if (filter.product !== undefined && !row.productName.toLowerCase().includes(filter.product.toLowerCase()))
    return false;
  return true;
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
