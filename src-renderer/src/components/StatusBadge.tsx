import type { BatchProgress } from '../../../src-main/shared/models.ts';
import { batchStatusWords } from '../../../src-main/shared/words.ts';

/** A batch's status in a badge, with why it is paused: "paused: out of credits". */
export function StatusBadge({ batch }: { batch: Pick<BatchProgress, 'status' | 'statusReason'> }) {
  return <span className={`badge badge-${batch.status}`}>{batchStatusWords(batch)}</span>;
}
