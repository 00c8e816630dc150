import {
  type BatchStatus,
  type BatchViewStatus,
  IN_DOUBT_JOB_STATES,
  type JobState,
} from '../../shared/vocabulary.ts';

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
 *                  without the user's word, since that could pay twice; the service's usage report may
 *                  settle it (failed: it did not charge; lost: it did)
 * lost             the service charged it, but its answer, with the id its results are fetched by, was lost:
 *                  they cannot be had; only a retry (paying again) makes the product's results
 * stale            still unfinished past its deadline, or unknown to the service that accepted it (404):
 *                  no longer polled until the user asks; the latter may be retried (paying again)
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
  outcome_unknown: ['waiting', 'cancelled', 'failed', 'lost'],
  lost: ['waiting'],
  stale: ['running', 'waiting'],
  cancelled: [],
  skipped: ['waiting'],
} as const satisfies Record<JobState, readonly JobState[]>;

/** States a batch's run loop still has work in. */
export const ACTIVE_JOB_STATES: readonly JobState[] = ['waiting', 'submitting', 'running', 'downloading'];
/**
 * States whose outcome or results are in doubt: the service may have charged what Adbatch never heard of
 * (outcome unknown), may still be making it (stale), or was paid for results not on disk (owed). They need a
 * person; a finished batch with any is shown as `needs_you`, never `finished`.
 */
export const ATTENTION_JOB_STATES: readonly JobState[] = IN_DOUBT_JOB_STATES;

/** The status a batch is shown in: `needs_you` when it has finished running with jobs in doubt. */
export function viewStatus(status: BatchStatus, jobsInDoubt: number): BatchViewStatus {
  return status === 'finished' && jobsInDoubt > 0 ? 'needs_you' : status;
}

export function canMove(from: JobState, to: JobState): boolean {
  return (JOB_TRANSITIONS[from] as readonly JobState[]).includes(to);
}

/**
 * running    jobs are being created and followed
 * paused     no new job is created (the user paused, credits ran out, the key was refused, or the photos
 *            could not be uploaded); jobs
 *            already created are still followed to their end and downloaded
 * cancelled  what was not yet created never will be; created jobs are still followed and downloaded
 * finished   no job has work left (shown as `needs_you` while a job is in doubt: `viewStatus`)
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
