import type { JobState } from '../../shared/vocabulary.ts';
import { ACTIVE_JOB_STATES } from '../queue/states.ts';
import type { QueueStore } from '../queue/store.ts';

/**
 * Finishes a batch that has nothing left to move: no job being created, followed or downloaded, and no job
 * waiting unless the batch was cancelled (a paused batch's waiting jobs keep it open; cancel moved them).
 * Returns true when the batch became `finished` now.
 */
export function settleBatch(store: QueueStore, batchId: string): boolean {
  const batch = store.batches.get(batchId);
  if (!batch || batch.status === 'finished') return false;
  const { byState } = store.totals(batchId);
  const count = (state: JobState) => byState[state] ?? 0;
  if (ACTIVE_JOB_STATES.some((state) => state !== 'waiting' && count(state) > 0)) return false;
  if (count('waiting') > 0 && batch.status !== 'cancelled') return false;
  store.batches.setStatus(batch.id, 'finished', batch.statusReason, batch.statusMessage);
  return true;
}
