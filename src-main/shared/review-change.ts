import type { ReviewChange } from './models.ts';
import type { RejectReason, ReviewFlag, ReviewLabel } from './vocabulary.ts';

// The rule of a decision, once for core (which commits it) and the renderer (which shows it within the frame,
// before core's answer comes back): a reason means rejected, a pick drops the reason, no flag drops it too;
// a colour label is apart from the flag; what a change leaves out stays as it was.

interface Decided {
  flag: ReviewFlag | null;
  stars: number;
  rejectReason: RejectReason | null;
  label: ReviewLabel | null;
}

export function applyReviewChange<T extends Decided>(before: T, change: ReviewChange): T {
  let flag = change.flag === undefined ? before.flag : change.flag;
  let rejectReason = before.rejectReason;
  if (change.rejectReason !== undefined) {
    rejectReason = change.rejectReason;
    if (rejectReason !== null) flag = 'rejected';
  }
  if (flag !== 'rejected') rejectReason = null;
  const stars = change.stars === undefined ? before.stars : change.stars;
  const label = change.label === undefined ? before.label : change.label;
  return { ...before, flag, stars, rejectReason, label };
}
