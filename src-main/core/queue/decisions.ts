import { type BatchDecision, type JobDecision, oddAnswerOf } from '../../shared/vocabulary.ts';
import { credits } from '../../shared/words.ts';
import { AppError } from '../app/errors.ts';
import { UNSETTLED } from './job-store.ts';
import { type Recovery, type RecoveryDeps, recoverResults } from './recovery.ts';
import { type BalanceAsked, balanceLeft, balanceWords, decideSpending } from './spend.ts';
import type { QueueStore } from './store.ts';
import type { Batch, Job } from './types.ts';

// The user's decisions on batches and jobs, with their preconditions, once for every front end: the app's
// buttons, the CLI's commands and an agent's tools all refuse the same things in the same words. What a job
// or a batch allows (decisionsFor, batchDecisionsFor) is what each decision's own check asks, so what the
// views offer is what these accept; front ends offer the views' list and never work it out again.

export function requireBatch(store: QueueStore, id: string): Batch {
  const batch = store.batches.get(id);
  if (!batch) throw new AppError('not_found', `There is no batch ${id}.`);
  return batch;
}

export function requireJob(store: QueueStore, id: string): Job {
  const job = store.jobs.get(id);
  if (!job) throw new AppError('not_found', `There is no job ${id}.`);
  return job;
}

/**
 * The decisions a batch allows: pause while it runs, resume while it is paused (whatever paused it), cancel
 * until it is finished or cancelled, download again what it owes (`owes`: results paid for and not on disk,
 * or its results folder gone), and check all again while a job is in doubt (`inDoubt`: free, one go).
 */
export function batchDecisionsFor(
  batch: Pick<Batch, 'status'>,
  owes: boolean,
  inDoubt = false,
): BatchDecision[] {
  const decisions: BatchDecision[] = [];
  if (inDoubt) decisions.push('recheck');
  if (batch.status === 'running') decisions.push('pause');
  if (batch.status === 'paused') decisions.push('resume');
  if (batch.status === 'running' || batch.status === 'paused') decisions.push('cancel');
  if (owes) decisions.push('redownload');
  return decisions;
}

/** Whether the batch's state allows this decision (what it owes is the redownload's own question). */
const batchAllows = (batch: Batch, decision: BatchDecision) =>
  batchDecisionsFor(batch, false).includes(decision);

/** The user's pause: nothing new is created; what was created is still followed and downloaded. */
export function pauseBatch(store: QueueStore, id: string): Batch {
  const batch = requireBatch(store, id);
  if (!batchAllows(batch, 'pause')) {
    throw new AppError('conflict', `Batch ${id} is ${batch.status}: there is nothing to pause.`);
  }
  store.batches.pause(batch.id);
  return store.batches.get(batch.id)!;
}

/**
 * Lets a paused batch create jobs again, whatever paused it (the user, credits, the key, the storage). One
 * paused for its library goes on where the library is now (put back, found again, or made again): its
 * folders made again and what is missing from them downloaded again, free (`recovery.ts`).
 */
export async function resumeBatch(deps: RecoveryDeps, id: string): Promise<Recovery> {
  const { store } = deps;
  const batch = requireBatch(store, id);
  if (!batchAllows(batch, 'resume')) {
    throw new AppError('conflict', `Batch ${id} is ${batch.status}: there is nothing to resume.`);
  }
  if (batch.statusReason === 'library') return recoverResults(deps, batch, { owed: 'lost' });
  store.batches.resume(batch.id);
  return { batch: store.batches.get(batch.id)!, downloading: 0, lostResults: 0, unserved: [] };
}

/** Never creates what is not created yet; created jobs are still followed and downloaded. */
export function cancelBatch(store: QueueStore, id: string): { batch: Batch; cancelledJobs: number } {
  const batch = requireBatch(store, id);
  if (!batchAllows(batch, 'cancel')) {
    throw new AppError('conflict', `Batch ${id} is ${batch.status}: there is nothing left to cancel.`);
  }
  const cancelledJobs = store.jobs.cancelBatch(batch.id);
  return { batch: store.batches.get(batch.id)!, cancelledJobs };
}

/**
 * The decisions a job in its state allows, for a front end to offer (buttons, hints). What cannot pay twice
 * comes first and alone: an unknown outcome is checked again (the service's usage report, free) before a
 * retry is offered, and the retry only once the report could not settle it. A job whose product (or pick)
 * a later job of its kind made good (`superseded`) is history: it is never bought again by one click.
 */
export function decisionsFor(job: Job, superseded: boolean): JobDecision[] {
  const retry: JobDecision[] = superseded ? [] : ['retry'];
  if (job.state === 'failed' || job.state === 'lost') return retry;
  if (job.state === 'outcome_unknown') {
    return ['recheck', ...(job.failureCode === UNSETTLED ? retry : []), 'abandon'];
  }
  if (job.state === 'stale') return ['recheck', ...(oddAnswerOf(job.failureCode)?.again ? retry : [])];
  if (job.state === 'owed') return ['redownload'];
  return [];
}

/** Whether a later job of the job's product and kind succeeded (`JobStore.supersededIn`). */
export function isSuperseded(store: QueueStore, job: Job): boolean {
  return store.jobs.supersededIn(job.batchId).has(job.id);
}

/** The job with what it allows now. */
function allowed(store: QueueStore, id: string): { job: Job; decisions: JobDecision[] } {
  const job = requireJob(store, id);
  return { job, decisions: decisionsFor(job, isSuperseded(store, job)) };
}

/** The job, if it may be retried now; else why not, in core's words. */
export function requireRetryable(store: QueueStore, id: string): Job {
  const { job, decisions } = allowed(store, id);
  if (decisions.includes('retry')) return job;
  const made = job.kind === 'shoot' ? 'shot' : 'made as a video';
  const why =
    job.state === 'failed' || job.state === 'lost' || job.state === 'outcome_unknown'
      ? isSuperseded(store, job)
        ? `its product was ${made} again after it, and that succeeded: its line stays as history, and buying it again would pay twice for the same thing.`
        : 'its outcome is unknown: check it again first (free: the service’s usage report may say whether it was charged), since a retry may pay twice.'
      : 'only failed, lost and outcome-unknown jobs can be retried.';
  throw new AppError('conflict', `Job ${id} is ${job.state}: ${why}`);
}

/**
 * Sends a failed, lost or outcome-unknown job again: it costs credits again, so its checks and its move are
 * one spending decision (spend.ts), against the balance of its batch's key as the service gave it after
 * `asked.mark`, less what other decisions committed since: two retries at once, in one process or two,
 * send it once, and two retries of different jobs never pass the balance together.
 */
export function retryJob(store: QueueStore, id: string, asked: BalanceAsked): Job {
  return decideSpending(store, () => {
    const job = requireRetryable(store, id);
    const price = store.jobs.retryPrice(job.id);
    const left = balanceLeft(store, asked);
    if (price > left) {
      const skipped = price > job.price ? ' and what waits on it' : '';
      throw new AppError(
        'conflict',
        `Retrying this ${job.kind}${skipped} costs ${credits(price)}; ${balanceWords(asked.balance, left)}. Top up first.`,
      );
    }
    return store.jobs.retry(job.id);
  });
}

/** Never sends an outcome-unknown job again. */
export function abandonJob(store: QueueStore, id: string): Job {
  const { job, decisions } = allowed(store, id);
  if (!decisions.includes('abandon')) {
    throw new AppError(
      'conflict',
      `Job ${id} is ${job.state}: only an outcome-unknown job can be abandoned.`,
    );
  }
  return store.jobs.abandon(job.id);
}

/** How long a rechecked stale job is followed again before it is stale once more. */
export const RECHECK_MS = 30 * 60_000;

/**
 * Follows a stale job again, until a new deadline; an outcome-unknown job is checked by the caller with the
 * service's usage report (`checkAgain`), which needs the service: here, only whether the job allows it.
 */
export function recheckJob(store: QueueStore, id: string, now: number): Job {
  const { job, decisions } = allowed(store, id);
  if (!decisions.includes('recheck')) {
    throw new AppError(
      'conflict',
      `Job ${id} is ${job.state}: only a stale or an outcome-unknown job can be checked again.`,
    );
  }
  return job.state === 'stale' ? store.jobs.recheck(job.id, now + RECHECK_MS) : job;
}

/** Downloads an owed job's results again: the service was paid, so nothing is sent and nothing charged. */
export async function redownloadJob(deps: RecoveryDeps, id: string): Promise<Recovery> {
  const { job, decisions } = allowed(deps.store, id);
  if (!decisions.includes('redownload')) {
    throw new AppError(
      'conflict',
      `Job ${id} is ${job.state}: only a job whose results are owed can be downloaded again.`,
    );
  }
  return recoverResults(deps, requireBatch(deps.store, job.batchId), { owed: 'all', only: job.id });
}

/**
 * Downloads again every result of a batch that is not in its library, as the disk says: those owed, and
 * those saved once but gone since (a library deleted, lost with its drive). The library is made again where
 * it was; nothing is sent, nothing charged; what the service no longer serves is said (`Recovery.unserved`).
 */
export async function redownloadBatch(deps: RecoveryDeps, id: string): Promise<Recovery> {
  const batch = requireBatch(deps.store, id);
  const pausedForLibrary = batch.status === 'paused' && batch.statusReason === 'library';
  const recovery = await recoverResults(deps, batch, { owed: 'all' });
  if (recovery.downloading === 0 && recovery.unserved.length === 0 && !pausedForLibrary) {
    throw new AppError('conflict', `Batch ${id} owes no results: every paid result is on disk.`);
  }
  return recovery;
}
