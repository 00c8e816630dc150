import type { BatchStatus, JobState } from '../../shared/vocabulary.ts';

// Every move between the states a job or a batch can be in: one table each, checked on every write (the job
// store refuses a move that is not listed here). The states themselves are named in shared/vocabulary.ts.

/**
 * waiting          recorded, not sent: waits for its turn, its shoot (videos) or a running batch
 * submitting       the intent is committed and the POST is (or was, before a crash) in flight
 * running          the service accepted it (201, remote id recorded) and it is being polled
 * downloading      the service completed it; its results are being downloaded and verified
 * owed             the service completed it and charged, but a result could not be downloaded (tried
 *                  DOWNLOAD_ATTEMPTS times, or refused): downloading again costs nothing, at the user's word
 * done             every result is on disk, verified (owed again if they are found missing from the library)
 * failed           the service failed it (refunded) or refused it (400: nothing charged), or it was never sent
 *                  (a video whose shot no URL could give the service: nothing charged)
 * outcome_unknown  the POST may have created it (timeout, reset, 5xx, crash mid-POST): never re-sent
 *                  without the user's word, since that could pay twice
 * stale            still unfinished past its deadline: no longer polled until the user asks
 * cancelled        never sent (cancelled batch) or abandoned by the user after an unknown outcome
 * skipped          a video whose shoot did not succeed, so it has no images to start from
 */
export const JOB_TRANSITIONS = {
  waiting: ['submitting', 'cancelled', 'skipped', 'failed'],
  submitting: ['running', 'waiting', 'failed', 'outcome_unknown'],
  running: ['running', 'downloading', 'failed', 'stale'],
  downloading: ['done', 'owed'],
  owed: ['downloading'],
  done: ['owed'],
  failed: ['waiting'],
  outcome_unknown: ['waiting', 'cancelled'],
  stale: ['running'],
  cancelled: [],
  skipped: ['waiting'],
} as const satisfies Record<JobState, readonly JobState[]>;

/** States a batch's run loop still has work in. */
export const ACTIVE_JOB_STATES: readonly JobState[] = ['waiting', 'submitting', 'running', 'downloading'];
/** States that need a person to decide. */
export const ATTENTION_JOB_STATES: readonly JobState[] = ['outcome_unknown', 'stale', 'owed'];

export function canMove(from: JobState, to: JobState): boolean {
  return (JOB_TRANSITIONS[from] as readonly JobState[]).includes(to);
}

/**
 * running    jobs are being created and followed
 * paused     no new job is created (the user paused, credits ran out, the key was refused, or the photos
 *            could not be uploaded); jobs
 *            already created are still followed to their end and downloaded
 * cancelled  what was not yet created never will be; created jobs are still followed and downloaded
 * finished   no job has work left (some may still need the user's decision)
 */
export const BATCH_TRANSITIONS = {
  running: ['paused', 'cancelled', 'finished'],
  paused: ['running', 'cancelled', 'finished'],
  cancelled: ['finished'],
  finished: ['running'],
} as const satisfies Record<BatchStatus, readonly BatchStatus[]>;

export function canMoveBatch(from: BatchStatus, to: BatchStatus): boolean {
  return (BATCH_TRANSITIONS[from] as readonly BatchStatus[]).includes(to);
}
