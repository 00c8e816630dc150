import { counted } from '../../shared/counted.ts';
import { localMinuteWords } from '../../shared/local-time.ts';
import { credits } from '../../shared/words.ts';
import { backupTakenAt, clearBackupMark } from '../db/backup-mark.ts';
import type { BatchId } from './ids.ts';
import type { QueueStore } from './store.ts';
import type { Job } from './types.ts';

// A restored backup must not pay twice. The backup is taken as a batch starts; the jobs it shows `waiting`
// may have been sent after it, and the engine would send them again (DESIGN.md, "No double charge"). So when
// core opens a database that carries the backup's mark (db/backup-mark.ts), before anything drives it, every
// unfinished batch is paused with the reason `restored` and words that say what resuming may pay twice: a
// paused batch creates nothing, so no POST leaves until a person resumes it. Jobs whose intent was committed
// are the crash's case (`submitting` becomes `outcome_unknown` as the engine starts); jobs being made are
// still followed and downloaded, which costs nothing. The mark is dropped in the same transaction, so the
// restore is handled once, whichever process opens the database first.

/** A batch held because its database is a restored backup, with the words of its pause. */
export interface RestoredBatch {
  batchId: BatchId;
  message: string;
}

/** Holds every unfinished batch of a restored backup and clears its mark; none when it is no backup. */
export function holdRestoredBatches(store: QueueStore): RestoredBatch[] {
  return store.db.transaction(() => {
    const takenAt = backupTakenAt(store.db);
    if (takenAt === null) return [];
    const held = store.batches
      .unfinished()
      // A cancelled batch creates nothing more: there is nothing of it to hold.
      .filter((batch) => batch.status !== 'cancelled')
      .map((batch) => {
        const message = restoredWords(takenAt, store.jobs.ofBatchInState(batch.id, 'waiting'));
        store.batches.setStatus(batch.id, 'paused', 'restored', message);
        return { batchId: batch.id, message };
      });
    clearBackupMark(store.db);
    return held;
  })();
}

/**
 * Why a batch of a restored backup is paused, and what resuming it may cost twice: "Restored from the backup
 * of 2025-01-15 09:00: its 2 videos not sent then (18 credits) may have been sent after it. …"
 */
function restoredWords(takenAt: number, unsent: ReadonlyArray<Pick<Job, 'kind' | 'price'>>): string {
  const moment = localMinuteWords(takenAt);
  const restored = `Restored from the backup of ${moment}`;
  if (unsent.length === 0) {
    return `${restored}: nothing of this batch was waiting to be sent then, so resuming sends nothing again.`;
  }
  const shoots = unsent.filter((job) => job.kind === 'shoot').length;
  const videos = unsent.length - shoots;
  const what = [
    ...(shoots > 0 ? [counted(shoots, 'shoot')] : []),
    ...(videos > 0 ? [counted(videos, 'video')] : []),
  ].join(' and ');
  const price = credits(unsent.reduce((sum, job) => sum + job.price, 0));
  return `${restored}: its ${what} not sent then (${price}) may have been sent after it. Resuming sends them again and may pay for them twice: check with the service what was made since ${moment} before going on.`;
}
