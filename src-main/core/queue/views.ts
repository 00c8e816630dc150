import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type {
  BatchDetail,
  BatchEta,
  BatchListItem,
  BatchProgress,
  BatchSummary,
  JobView,
  ServiceTrouble,
  UploadProgress,
} from '../../shared/models.ts';
import type { JobState } from '../../shared/vocabulary.ts';
import type { FileGateway } from '../app/files.ts';
import { thumbnailPath } from '../ingest/check-photo.ts';
import { batchFolder, ingestCacheDir } from '../library.ts';
import type { RateLimit } from '../scheduler/budget.ts';
import { DurationModel, durationClass } from '../scheduler/durations.ts';
import { emptyTotals } from './batch-totals.ts';
import { batchDecisionsFor, decisionsFor } from './decisions.ts';
import { type EtaInput, type EtaJob, estimateEta } from './eta.ts';
import { ACTIVE_JOB_STATES, ATTENTION_JOB_STATES, viewStatus } from './states.ts';
import type { BatchTotals, QueueStore } from './store.ts';
import type { Batch, Job, Product, VideoSettings } from './types.ts';

// Batches as the renderer sees them: local files as gateway URLs, never as paths to open.

/** What a view needs beyond the store: facts that live in main's memory. */
export interface BatchFacts {
  /** Whose key the batch was made with, and whether this process holds it to send and follow its jobs. */
  key(batch: Batch): { accountName: string; held: boolean };
  /** The batch's upload to storage while it runs; null otherwise. */
  upload(batchId: string): UploadProgress | null;
  /** The request budget its key is driven with, and how much faster than real time the sandbox runs. */
  pace(batch: Batch): { rateLimit: RateLimit; sandboxTimeScale: number };
  /** Whether its key's requests are answered lately, as the process driving them saw it (null when they are). */
  service(batch: Batch): ServiceTrouble | null;
  now(): number;
}

/** However short its jobs, a batch is not said to wait on the service before a minute (its service's time). */
const MIN_STALL_MS = 60_000;

/** How long after its acceptance a poll last found a running job still running; 0 when none did. */
function polledRunningMs(job: Job): number {
  if (job.state !== 'running' || job.acceptedAt === null || job.lastPolledRunningAt === null) return 0;
  return Math.max(0, job.lastPolledRunningAt - job.acceptedAt);
}

/**
 * Durations an ETA draws from besides the batch's own: enough earlier ones to show a slow tail in its
 * proportions (one job in ten is a dozen of them). GUESS: 120, a few batches' worth; older ones may come
 * from another day's pace.
 */
const EARLIER_SAMPLES = 120;

/**
 * What a running batch's ETA is worked out from (eta.ts): its jobs with work left, what their classes
 * taught (scheduler/durations.ts) and its key's budget. A video whose shoot waits for a person is not
 * counted: it runs only once the person decides. Exported for bench:eta, which shows the estimate's parts.
 */
export function etaInputOf(store: QueueStore, batch: Batch, facts: BatchFacts): EtaInput | null {
  if (batch.status !== 'running') return null;
  const now = facts.now();
  const { rateLimit, sandboxTimeScale } = facts.pace(batch);
  const jobs = store.jobs.ofBatch(batch.id);
  const byId = new Map(jobs.map((job) => [job.id as string, job]));
  const active = (job: Job | undefined) => job !== undefined && ACTIVE_JOB_STATES.includes(job.state);
  const durations = new DurationModel(store.db, () => now, sandboxTimeScale);
  // What a class learned, read once per class: a batch's hundreds of jobs share a few classes, and the ETA
  // is worked out again at every progress event.
  const learned = new Map<
    string,
    Pick<EtaJob, 'samplesMs' | 'batchSamplesMs' | 'earlierSamplesMs' | 'priorMs'>
  >();
  const learnedOf = (jobClass: string) => {
    let known = learned.get(jobClass);
    if (!known) {
      known = {
        samplesMs: durations.knownMs(jobClass),
        batchSamplesMs: durations.learnedSinceMs(jobClass, batch.createdAt),
        earlierSamplesMs: durations.learnedBeforeMs(jobClass, batch.createdAt, EARLIER_SAMPLES),
        priorMs: durations.priorMs(jobClass),
      };
      learned.set(jobClass, known);
    }
    return known;
  };
  const left: EtaJob[] = jobs
    .filter((job) => active(job))
    .filter(
      (job) =>
        job.afterJobId === null ||
        active(byId.get(job.afterJobId)) ||
        byId.get(job.afterJobId)?.state === 'done',
    )
    .map((job): EtaJob => {
      const jobClass = durationClass(job, batch.sandbox);
      return {
        id: job.id,
        kind: job.kind,
        phase: job.state === 'waiting' ? 'waiting' : job.state === 'downloading' ? 'downloading' : 'running',
        elapsedMs: job.state === 'running' && job.acceptedAt !== null ? now - job.acceptedAt : 0,
        polledRunningMs: polledRunningMs(job),
        after: job.afterJobId !== null && active(byId.get(job.afterJobId)) ? job.afterJobId : null,
        durationClass: jobClass,
        ...learnedOf(jobClass),
      };
    });
  return {
    now,
    jobs: left,
    rate: rateLimit,
    // Progress is a job ending, or the batch given work again (resumed, reopened by a retry, a check, videos
    // from picks or a reshoot: each moves its status, or its quote): a batch that finished an hour ago and
    // has just been given videos to make is not "waiting on the service for 1 h".
    lastProgressAt: Math.max(batch.createdAt, batch.updatedAt, ...jobs.map((job) => job.finishedAt ?? 0)),
    minStallMs: MIN_STALL_MS * (batch.sandbox ? sandboxTimeScale : 1),
  };
}

/** When a running batch should be done (eta.ts); null when it is not running or has nothing left. */
function etaOf(store: QueueStore, batch: Batch, facts: BatchFacts): BatchEta | null {
  const input = etaInputOf(store, batch, facts);
  return input && estimateEta(input);
}

function progressOf(store: QueueStore, batch: Batch, totals: BatchTotals, facts: BatchFacts): BatchProgress {
  const count = (state: JobState) => totals.byState[state] ?? 0;
  const attention = ATTENTION_JOB_STATES.reduce((sum, state) => sum + count(state), 0);
  return {
    id: batch.id,
    name: batch.name,
    status: viewStatus(batch.status, attention),
    statusReason: batch.statusReason,
    statusMessage: batch.statusMessage,
    upload: facts.upload(batch.id),
    jobs: totals.jobs,
    videos: totals.videos,
    done: count('done'),
    failed: count('failed'),
    attention,
    states: { ...totals.byState },
    staleOnAnswers: totals.staleOnAnswers,
    created: totals.created,
    inFlight: ACTIVE_JOB_STATES.reduce((sum, state) => sum + (state === 'waiting' ? 0 : count(state)), 0),
    creditsSpent: totals.charged - totals.refunded,
    creditsRefunded: totals.refunded,
    creditsAtStake: totals.atStake,
    creditsInDoubt: totals.inDoubt,
    eta: etaOf(store, batch, facts),
    serviceTrouble: batch.status === 'running' ? facts.service(batch) : null,
  };
}

export function batchProgress(store: QueueStore, batch: Batch, facts: BatchFacts): BatchProgress {
  return progressOf(store, batch, store.totals(batch.id), facts);
}

function summaryOf(
  store: QueueStore,
  batch: Batch,
  totals: BatchTotals,
  products: number,
  facts: BatchFacts,
): BatchSummary {
  const key = facts.key(batch);
  return {
    ...progressOf(store, batch, totals, facts),
    accountName: key.accountName,
    keyHeld: key.held,
    keyHint: batch.keyHint,
    sandbox: batch.sandbox,
    createdAt: batch.createdAt,
    products,
    quotedCredits: batch.quotedCredits,
    brandName: store.batches.brandName(batch.id),
    creditCap: batch.creditCap,
    agentClient: batch.agentClient,
  };
}

export function batchSummary(store: QueueStore, batch: Batch, facts: BatchFacts): BatchSummary {
  return summaryOf(store, batch, store.totals(batch.id), store.batches.productCount(batch.id), facts);
}

/** Every batch, newest first, with its cover, from one pass over the totals and one over the thumbnails. */
export function batchSummaries(store: QueueStore, facts: BatchFacts, files: FileGateway): BatchListItem[] {
  const all = store.allTotals();
  const covers = store.assets.covers();
  const empty = emptyTotals();
  return store.batches
    .all()
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((batch) => {
      const totals = all.get(batch.id) ?? empty;
      const cover = covers.get(batch.id);
      return {
        ...summaryOf(store, batch, totals, totals.products, facts),
        coverUrl: cover ? files.url(join(batch.libraryDir, cover)) : null,
      };
    });
}

/** Per job of a batch, the credits its creates whose outcome is unknown hold at stake, not resolved yet. */
export function stakesOf(store: QueueStore, batchId: string): Map<string, number> {
  const stakes = new Map<string, number>();
  for (const entry of store.ledger.unresolved({ batchId })) {
    stakes.set(entry.jobId, (stakes.get(entry.jobId) ?? 0) + entry.credits);
  }
  return stakes;
}

/** A job as front ends show it; `superseded`: a later job of its product and kind succeeded (no retry). */
export function jobView(
  job: Job,
  results: JobView['results'],
  stakes: ReadonlyMap<string, number>,
  superseded: boolean,
  now: number,
): JobView {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    remoteStatus: job.remoteStatus,
    late: job.state === 'running' && job.deadlineAt !== null && now > job.deadlineAt,
    price: job.price,
    creditsCharged: job.creditsCharged,
    creditsRefunded: job.creditsRefunded,
    creditsAtStake: stakes.get(job.id) ?? 0,
    decisions: decisionsFor(job, superseded),
    superseded,
    aspectRatio: job.settings.aspectRatio,
    failureCode: job.failureCode,
    failureMessage: job.failureMessage,
    results,
  };
}

/** The product's hero as the renderer shows it: ingest's cached thumbnail, else the file, else its URL. */
function heroUrl(product: Product, libraryDir: string, files: FileGateway): string | null {
  const hero = product.photos[0];
  if (hero?.hash) return files.url(thumbnailPath({ dir: ingestCacheDir(libraryDir) }, hero.hash));
  if (hero?.path) return files.url(hero.path);
  return hero?.url ?? null;
}

export function batchDetail(
  store: QueueStore,
  batch: Batch,
  facts: BatchFacts,
  files: FileGateway,
  now: number,
  /** A video's poster frame on disk, by the video's sha256 (review/previews.ts). */
  posterOf: (sha256: string) => string | null = () => null,
): BatchDetail {
  const jobs = store.jobs.ofBatch(batch.id);
  const assets = store.assets.ofBatch(batch.id);
  // A shot is shown by its thumbnail and reviewed as its image (the same job and index).
  const imageIds = new Map(
    assets
      .filter((asset) => asset.kind === 'image')
      .map((asset) => [`${asset.jobId}/${asset.idx}`, asset.id]),
  );
  const resultsByJob = new Map<string, JobView['results']>();
  for (const asset of assets) {
    if (asset.state !== 'done' || asset.kind === 'image') continue;
    const results = resultsByJob.get(asset.jobId) ?? [];
    const poster = asset.kind === 'video' && asset.sha256 ? posterOf(asset.sha256) : null;
    results.push({
      kind: asset.kind,
      url: files.url(join(batch.libraryDir, asset.path)),
      resultId: asset.kind === 'video' ? asset.id : (imageIds.get(`${asset.jobId}/${asset.idx}`) ?? null),
      posterUrl: poster ? files.url(poster) : null,
    });
    resultsByJob.set(asset.jobId, results);
  }
  const stakes = stakesOf(store, batch.id);
  const superseded = store.jobs.supersededIn(batch.id);
  const jobsByProduct = new Map<string, JobView[]>();
  for (const job of jobs) {
    const view = jobView(job, resultsByJob.get(job.id) ?? [], stakes, superseded.has(job.id), now);
    jobsByProduct.set(job.productId, [...(jobsByProduct.get(job.productId) ?? []), view]);
  }
  const products = store.batches.products(batch.id);
  const totals = store.totals(batch.id);
  const resultsFolderMissing =
    store.assets.anySaved(batch.id) && !existsSync(join(batch.libraryDir, batchFolder(batch)));
  const summary = summaryOf(store, batch, totals, products.length, facts);
  return {
    ...summary,
    resultsFolder: join(batch.libraryDir, batchFolder(batch)),
    resultsFolderMissing,
    shoot: batch.shoot,
    video: batch.video,
    videosAfterReview: batch.videosAfterReview && {
      video: batch.videosAfterReview,
      made: jobs.some((job) => job.kind === 'video'),
    },
    lastPickedVideo: lastPickedVideo(jobs),
    decisions: batchDecisionsFor(
      batch,
      (totals.byState.owed ?? 0) > 0 || resultsFolderMissing,
      summary.attention > 0,
    ),
    items: products.map((product) => ({
      id: product.id,
      name: product.name,
      heroUrl: heroUrl(product, batch.libraryDir, files),
      jobs: jobsByProduct.get(product.id) ?? [],
    })),
  };
}

/** The settings of the batch's latest video made from its picks, as Make videos takes them. */
function lastPickedVideo(jobs: readonly Job[]): BatchDetail['lastPickedVideo'] {
  const latest = jobs
    .filter((job) => job.kind === 'video' && (job.settings as VideoSettings).images !== undefined)
    .reduce<Job | null>((last, job) => (last && last.createdAt > job.createdAt ? last : job), null);
  if (!latest) return null;
  const { duration, resolution, mode, aspectRatio, logoUrl, logoFile, music, note } =
    latest.settings as VideoSettings;
  return {
    duration,
    resolution,
    mode,
    aspectRatio,
    ...(logoUrl ? { logoUrl } : {}),
    ...(logoFile ? { logoFile } : {}),
    ...(music !== undefined ? { music } : {}),
    ...(note ? { note } : {}),
  };
}
