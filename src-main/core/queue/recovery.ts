import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { credits } from '../../shared/words.ts';
import { NotFoundError, type RemoteShoot, type RemoteVideo } from '../api/index.ts';
import { AppError } from '../app/errors.ts';
import { remakeLibrary } from '../downloads/library-check.ts';
import { resultFiles } from '../downloads/result-files.ts';
import { checkLink, type LinkCheck } from '../hosting/link-check.ts';
import { batchFolder } from '../library.ts';
import { sha256OfFile } from '../util/file-sha256.ts';
import type { AssetId, JobId } from './ids.ts';
import type { QueueStore } from './store.ts';
import type { Batch, Job } from './types.ts';

// A batch's results brought back after its library was deleted, put back empty or found again: what the
// database remembers as saved is checked against the disk (never taken on its word), the library and the
// batch's folder are made again, and what is missing is downloaded again from the service, free, while it
// still serves it. A result URL that no longer answers is asked for again (the job's GET gives fresh ones);
// a job whose results the service no longer serves at all is said, with the credits it was paid.

/** The service's answer for a job, asked in its key's budget (`QueueDriver.remoteJob`). */
export type RemoteJob = (batch: Batch, job: Job) => Promise<RemoteShoot | RemoteVideo>;

export interface RecoveryDeps {
  store: QueueStore;
  remoteJob: RemoteJob;
  /** Whether a result URL answers (default `checkLink`). */
  checkLink?: LinkCheck;
}

export interface Recovery {
  batch: Batch;
  /** Jobs whose results are being downloaded again. */
  downloading: number;
  /** Results saved once that the disk no longer held as downloaded (gone, cut short, changed): owed again. */
  lostResults: number;
  /** Jobs whose results the service no longer serves: they stay owed, with why. */
  unserved: Job[];
}

/**
 * Results recorded as saved in the batch's library that are not there now, whole, by job. `byContent`: a
 * file of the right size is read too, and one whose bytes are not those downloaded (a stray write, a
 * failing disk, an editor that saved over it) is missing as well. A person's Download again asks it: it
 * reads every result once. A resume after the library was found again checks sizes only.
 */
export async function resultsMissingFromDisk(
  store: QueueStore,
  batch: Batch,
  { byContent }: { byContent: boolean },
): Promise<Map<JobId, AssetId[]>> {
  const missing = new Map<JobId, AssetId[]>();
  for (const asset of store.assets.ofBatch(batch.id)) {
    if (asset.state !== 'done') continue;
    if (await onDisk(join(batch.libraryDir, asset.path), asset, byContent)) continue;
    missing.set(asset.jobId, [...(missing.get(asset.jobId) ?? []), asset.id]);
  }
  return missing;
}

/** Whether a saved result is on disk whole: its size, and (`byContent`) the sha256 of its bytes. */
async function onDisk(
  file: string,
  saved: { bytes: number | null; sha256: string | null },
  byContent: boolean,
): Promise<boolean> {
  const found = await stat(file).catch(() => null);
  if (!found?.isFile() || found.size !== saved.bytes) return false;
  if (!byContent || saved.sha256 === null) return true;
  return (await sha256OfFile(file).catch(() => null)) === saved.sha256;
}

/**
 * Which owed jobs a recovery downloads again: `owed` every one (the user's Download again, of the batch or
 * of one job), `lost` only those whose results it found missing from the disk (a resume: a job owed before
 * for another reason waits for the user's word, as it did).
 */
export type RecoveryScope = { owed: 'all' | 'lost'; only?: JobId };

/**
 * Makes the batch whole on disk again: its library and folder made again where they were, every result
 * missing from them owed again, and the owed jobs of the scope whose results the service still serves
 * downloading again (nothing sent, nothing charged). A batch paused for its library runs again. Throws when
 * the library is on a drive that is not connected: nothing is made in its place.
 */
export async function recoverResults(
  deps: RecoveryDeps,
  batch: Batch,
  scope: RecoveryScope,
): Promise<Recovery> {
  const { store } = deps;
  const { only } = scope;
  if (!(await remakeLibrary(batch.libraryDir, batchFolder(batch)))) {
    throw new AppError(
      'conflict',
      `The library (${batch.libraryDir}) is on a drive that is not connected: connect it, or choose where the library is now.`,
    );
  }
  const lost = new Set<JobId>();
  let lostResults = 0;
  const missing = await resultsMissingFromDisk(store, batch, { byContent: scope.owed === 'all' });
  for (const [jobId, assetIds] of missing) {
    if (only !== undefined && jobId !== only) continue;
    store.jobs.markResultsLost(jobId, assetIds);
    lost.add(jobId);
    lostResults += assetIds.length;
  }
  let downloading = 0;
  const unserved: Job[] = [];
  for (const job of store.jobs.ofBatchInState(batch.id, 'owed')) {
    if (only !== undefined && job.id !== only) continue;
    if (scope.owed === 'lost' && !lost.has(job.id)) continue;
    if (await stillServed(deps, batch, job)) {
      store.jobs.redownload(job.id);
      downloading++;
    } else {
      store.jobs.explainOwed(job.id, {
        code: 'results_gone',
        message: `The service no longer serves this ${job.kind}'s results; it charged ${credits(job.creditsCharged)} for it.`,
      });
      unserved.push(job);
    }
  }
  const current = store.batches.get(batch.id)!;
  if (current.status === 'paused' && current.statusReason === 'library') store.batches.resume(batch.id);
  return { batch: store.batches.get(batch.id)!, downloading, lostResults, unserved };
}

/** What a recovery found on disk, in one sentence for every front end, or null when nothing was lost. */
export function lostResultsMessage(recovery: Pick<Recovery, 'lostResults'>): string | null {
  const { lostResults } = recovery;
  if (lostResults === 0) return null;
  const which = lostResults === 1 ? '1 result was' : `${lostResults} results were`;
  return `${which} not on disk as downloaded (gone, cut short or changed since): downloading again, free.`;
}

/**
 * Whether an owed job's results can be fetched: their URLs answer, or the service gives fresh ones that do
 * (recorded in place of the old). A question that only went unanswered (a 5xx, a reset, no answer in time)
 * counts as served: the download tries again with its backoff, and says so if it fails.
 */
async function stillServed(deps: RecoveryDeps, batch: Batch, job: Job): Promise<boolean> {
  const { store } = deps;
  const check = deps.checkLink ?? ((url: string) => checkLink(url));
  const owed = store.assets.ofJob(job.id).filter((asset) => asset.state !== 'done');
  const answers = await Promise.all(owed.map((asset) => check(asset.url)));
  if (answers.every((answer) => answer.answers || !answer.gone)) return true;
  let remote: RemoteShoot | RemoteVideo;
  try {
    remote = await deps.remoteJob(batch, job);
  } catch (error) {
    return !(error instanceof NotFoundError);
  }
  const product = store.batches.product(job.productId)!;
  const fresh = resultFiles(batch, product, remote, store.jobs.earlierOfKind(job));
  const renewed: string[] = [];
  for (const asset of owed) {
    const file = fresh.find((candidate) => candidate.kind === asset.kind && candidate.idx === asset.idx);
    if (!file) return false;
    if (file.url !== asset.url) store.assets.renewUrl(asset.id, file.url);
    renewed.push(file.url);
  }
  const again = await Promise.all(renewed.map((url) => check(url)));
  return again.every((answer) => answer.answers || !answer.gone);
}

/** What a recovery could not bring back, in one sentence for every front end, or null. */
export function unservedMessage(store: QueueStore, unserved: readonly Job[]): string | null {
  if (unserved.length === 0) return null;
  const paid = unserved.reduce((sum, job) => sum + job.creditsCharged, 0);
  const which = unserved
    .map((job) => `the ${job.kind} of ${store.batches.product(job.productId)?.name ?? job.productId}`)
    .join(', ');
  return `The service no longer serves the results of ${unserved.length === 1 ? 'one job' : `${unserved.length} jobs`} (${which}): ${credits(paid)} ${paid === 1 ? 'was' : 'were'} paid for them, and they cannot be downloaded again.`;
}
