import { extname } from 'node:path';
import {
  ApiError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitedError,
  type RemoteShoot,
  type RemoteVideo,
  type ServiceClient,
  UnauthorizedError,
} from '../api/index.ts';
import { VIDEO_MAX_IMAGES } from '../catalog.ts';
import { DownloadError, downloadVerified } from '../downloads/download.ts';
import type { HostingProgress, PhotoHost } from '../hosting/photo-host.ts';
import { batchFolder, productFolder } from '../library.ts';
import { ACTIVE_JOB_STATES, type JobState } from '../queue/states.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Asset, Batch, Job, Photo, ShootSettings, VideoSettings } from '../queue/types.ts';
import { type RateLimit, RequestBudget, type Slot } from './budget.ts';
import { DurationModel, durationClass } from './durations.ts';

// The run loop. Every request a key makes goes through that key's budget; each time a slot is free it goes
// to the most useful request: first a poll that is due (a job likely done), then a create. Polls are timed
// from learned durations, so that the budget is spent on answers, not on "still running". Results are
// downloaded as soon as a job completes, outside the budget (result URLs need no key).

export interface EngineOptions {
  store: QueueStore;
  /** The batches this run drives. */
  batchIds: string[];
  clientFor: (batch: Batch) => ServiceClient | null;
  /**
   * Where this batch's local photos are served from. Throws, saying why, when nothing can serve them (no
   * storage set up for a remote service): the batch is then paused for the user, not failed.
   */
  hostFor: (batch: Batch) => PhotoHost;
  rateLimit: RateLimit;
  now?: () => number;
  /** Polls aim at the moment a job is done with this probability (default 0.9). */
  pollQuantile?: number;
  /** Multiplies the duration priors and every fixed delay (a sandbox running faster than real time). */
  timeScale?: number;
  maxInFlight?: number;
  downloadConcurrency?: number;
  onChange?: (batchId: string) => void;
  onNotice?: (batchId: string, message: string) => void;
  /** Keep running when idle, for batches handed over later with `drive` (the app); default false. */
  stayAlive?: boolean;
  /** A batch's local photos being made reachable before its jobs are sent (an upload, for storage). */
  onHostingProgress?: (batchId: string, progress: HostingProgress) => void;
}

const DOWNLOAD_ATTEMPTS = 6;
/** How many of the soonest polls are looked at for an early poll. */
const EARLY_POLL_LOOKAHEAD = 16;
/** Jobs of a kind that probe for its first duration; the rest wait for what they learn. */
const PROBING_JOBS = 2;

function assetExtension(url: string, fallback: string): string {
  try {
    const extension = extname(new URL(url).pathname).toLowerCase();
    return /^\.(jpe?g|png|webp|mp4)$/.test(extension) ? extension : fallback;
  } catch {
    return fallback;
  }
}

/** A photo could not be given a URL the service can fetch (storage missing, refusing, unreachable). */
class PhotoUnreachable extends Error {}

export class Engine {
  private readonly store: QueueStore;
  private readonly now: () => number;
  private readonly durations: DurationModel;
  private readonly budgets = new Map<string, RequestBudget>();
  private readonly clients = new Map<string, ServiceClient | null>();
  private readonly inFlight = new Set<string>();
  private readonly downloading = new Set<number>();
  private readonly retryDownloadAt = new Map<number, number>();
  /** Per job, how long after acceptance a poll last found it running (learning brackets, early polls). */
  private readonly lastRunningPollAt = new Map<string, number>();
  /** Jobs whose last poll failed: they wait for their backed-off poll, never an early one. */
  private readonly pollFailedLast = new Set<string>();
  private readonly refusedKeys = new Set<string>();
  private readonly probing = new Map<Job['kind'], Set<string>>();
  private readonly batchIds: Set<string>;
  /** Batches whose photos were all made reachable by this run: `drive` prepares the others first. */
  private readonly hosted = new Set<string>();
  private wake: (() => void) | null = null;
  private stopping = false;
  private readonly scale: number;

  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.scale = options.timeScale ?? 1;
    this.durations = new DurationModel(this.store.db, this.now, this.scale);
    this.batchIds = new Set(options.batchIds);
  }

  /** Stops taking new work; `run` resolves once what is in flight has settled. */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  /**
   * Runs until nothing is left that can move without the user (or `stop`). With `stayAlive` (the app), it
   * runs until `stop`, settling batches as they finish and taking new ones through `drive`.
   */
  async run(): Promise<void> {
    this.recoverInterruptedCreates();
    await this.hostInputs([...this.batchIds]);
    while (true) {
      const now = this.now();
      let wakeAt = now + 1000 * this.scale;
      if (!this.stopping) {
        wakeAt = Math.min(wakeAt, this.pumpDownloads(now));
        for (const keyId of this.activeKeys()) wakeAt = Math.min(wakeAt, this.pumpKey(keyId, now));
      }
      if (this.inFlight.size === 0 && this.downloading.size === 0 && (this.stopping || this.idle())) {
        if (this.stopping || !this.options.stayAlive) break;
        for (const batchId of this.batchIds) this.settleBatch(batchId);
      }
      await this.sleepUntil(wakeAt);
    }
    for (const budget of this.budgets.values()) budget.compact();
    for (const batchId of this.batchIds) this.settleBatch(batchId);
  }

  /** Takes on a batch created (or reopened) while the engine runs. */
  async drive(batchId: string): Promise<void> {
    if (!this.hosted.has(batchId)) await this.hostInputs([batchId]);
    this.batchIds.add(batchId);
    this.nudge();
  }

  /**
   * A request made outside the run loop with a key the engine may be using (a balance check, the model
   * list): it waits for a slot of that key's budget like the engine's own, so it cannot push a batch over
   * the rate limit.
   */
  async request<T>(keyId: string, send: () => Promise<T>): Promise<T> {
    const budget = this.budget(keyId);
    for (let wait = budget.waitMs(); wait > 0; wait = budget.waitMs()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    budget.take()();
    try {
      return await send();
    } catch (error) {
      if (error instanceof RateLimitedError) budget.rateLimited(error.retryAfterMs);
      throw error;
    } finally {
      this.wake?.();
    }
  }

  /** Looks again now: the user changed something (resumed, retried) that may have work ready. */
  nudge(): void {
    this.wake?.();
  }

  /** A crash between committing an intent and recording its answer leaves the outcome unknown. */
  private recoverInterruptedCreates(): void {
    for (const job of this.store.jobsInState('submitting')) {
      if (!this.batchIds.has(job.batchId)) continue;
      this.store.markOutcomeUnknown(job.id, {
        code: 'interrupted',
        message:
          'Adbatch stopped while this job was being created: the service may have created and charged it.',
      });
      this.options.onChange?.(job.batchId);
    }
  }

  /**
   * Makes a batch's local photos reachable before its jobs are sent. A host that serves from this process
   * is told every photo again after a restart, since jobs created before it may still be fetching theirs;
   * storage keeps what it was sent, so only the photos of shoots not yet sent are checked (a photo is
   * hashed and looked up for that, which is not worth repeating at every start for a batch mostly done).
   */
  private async hostInputs(batchIds: readonly string[]): Promise<void> {
    for (const batchId of batchIds) {
      const batch = this.store.batch(batchId);
      // A batch paused for its photos waits for the user to fix the storage and resume it.
      if (!batch || (batch.status === 'paused' && batch.statusReason === 'hosting')) continue;
      const products = this.store.products(batchId).filter((product) => product.photos.some((p) => p.path));
      try {
        if (products.length > 0) {
          const host = this.options.hostFor(batch);
          const unsent = new Set(
            this.store
              .jobs(batchId)
              .filter((job) => job.kind === 'shoot' && job.state === 'waiting')
              .map((job) => job.productId),
          );
          const paths = new Set<string>();
          for (const product of products) {
            if (host.persistent && !unsent.has(product.id)) continue;
            for (const photo of product.photos) if (photo.path) paths.add(photo.path);
          }
          await host.prepare([...paths], (progress) => this.options.onHostingProgress?.(batchId, progress));
        }
        this.hosted.add(batchId);
      } catch (error) {
        this.pauseForHosting(batchId, (error as Error).message);
      }
    }
  }

  /** Nothing is sent for a batch whose photos the service could not fetch: it would pay for failures. */
  private pauseForHosting(batchId: string, message: string): void {
    this.hosted.delete(batchId);
    const batch = this.store.batch(batchId);
    if (batch && (batch.status === 'running' || batch.status === 'paused')) {
      this.store.setBatchStatus(batchId, 'paused', 'hosting', message);
    }
    this.options.onNotice?.(batchId, `Paused: ${message}`);
    this.options.onChange?.(batchId);
  }

  private batches(): Batch[] {
    return [...this.batchIds]
      .map((id) => this.store.batch(id))
      .filter((batch): batch is Batch => batch !== null);
  }

  private activeKeys(): string[] {
    return [...new Set(this.batches().map((batch) => batch.keyId))].filter(
      (keyId) => !this.refusedKeys.has(keyId),
    );
  }

  private budget(keyId: string): RequestBudget {
    let budget = this.budgets.get(keyId);
    if (!budget) {
      budget = new RequestBudget(this.store.db, keyId, this.options.rateLimit, this.now);
      this.budgets.set(keyId, budget);
    }
    return budget;
  }

  private client(batch: Batch): ServiceClient | null {
    const cacheKey = `${batch.baseUrl} ${batch.keyId}`;
    if (!this.clients.has(cacheKey)) this.clients.set(cacheKey, this.options.clientFor(batch));
    return this.clients.get(cacheKey) ?? null;
  }

  private idle(): boolean {
    const ids = [...this.batchIds];
    const keys = this.activeKeys().filter((keyId) => this.keyUsable(keyId));
    const running = keys.some((keyId) => this.store.runningByNextPoll(ids, keyId, 1).length > 0);
    const ready = keys.some((keyId) => this.store.readyToSubmit(ids, keyId, 1).length > 0);
    return !running && !ready && this.store.pendingAssets(ids).length === 0;
  }

  /** A key we hold and the service has not refused. */
  private keyUsable(keyId: string): boolean {
    const batch = this.batches().find((candidate) => candidate.keyId === keyId);
    return batch !== undefined && !this.refusedKeys.has(keyId) && this.client(batch) !== null;
  }

  /** Sends what this key's budget allows now; returns when to look again. */
  /**
   * Sends what this key's budget allows now; returns when to look again. When the budget is the limit,
   * requests that unlock more work go first: a video's create (the longest jobs), then a due shoot poll
   * (it unlocks that video), then a shoot's create, and last a due video poll (it unlocks only a download).
   */
  private pumpKey(keyId: string, now: number): number {
    if (!this.keyUsable(keyId)) return Number.POSITIVE_INFINITY;
    const budget = this.budget(keyId);
    const maxInFlight = this.options.maxInFlight ?? 8;
    while (this.inFlight.size < maxInFlight) {
      const wait = budget.waitMs();
      if (wait > 0) return now + wait;
      const video = this.nextReady(keyId, 'video');
      const shootPoll = video ? null : this.nextDuePoll(keyId, 'shoot', now);
      const shoot = video || shootPoll ? null : this.nextReady(keyId, 'shoot');
      const videoPoll = video || shootPoll || shoot ? null : this.nextDuePoll(keyId, 'video', now);
      const submit = video ?? shoot;
      const poll = shootPoll ?? videoPoll ?? (submit ? null : this.nextEarlyPoll(keyId, budget, now));
      if (submit) {
        const slot = budget.take();
        this.launch(submit.id, slot, () => this.submit(submit, budget, slot));
      } else if (poll) {
        const slot = budget.take();
        this.launch(poll.id, slot, () => this.poll(poll, budget, slot));
      } else {
        break;
      }
    }
    // A full pipe is reopened by the next answer (it wakes the loop), not by the clock.
    if (this.inFlight.size >= maxInFlight) return Number.POSITIVE_INFINITY;
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const job of this.store.runningByNextPoll(
      [...this.batchIds],
      keyId,
      this.inFlight.size + EARLY_POLL_LOOKAHEAD,
    )) {
      if (!this.inFlight.has(job.id))
        wakeAt = Math.min(wakeAt, job.nextPollAt ?? wakeAt, this.earlyPollAt(job));
    }
    return wakeAt;
  }

  /**
   * A budget with room to spare and nothing due is spent on an early look at a job that is done with even
   * odds: a free chance to detect it sooner (the end of a batch is made of such waits), and a poll that
   * finds it running still teaches a bound. Not done while the budget is busy: there a miss costs a slot.
   */
  private nextEarlyPoll(keyId: string, budget: RequestBudget, now: number): Job | null {
    if (budget.available() <= this.options.rateLimit.limit / 2) return null;
    const candidates = this.store.runningByNextPoll(
      [...this.batchIds],
      keyId,
      this.inFlight.size + EARLY_POLL_LOOKAHEAD,
    );
    return candidates.find((job) => !this.inFlight.has(job.id) && this.earlyPollAt(job) <= now) ?? null;
  }

  private earlyPollAt(job: Job): number {
    const jobClass = durationClass(job);
    if (job.acceptedAt === null || !this.durations.knows(jobClass))
      return job.nextPollAt ?? Number.POSITIVE_INFINITY;
    const lastSeenRunning = this.lastRunningPollAt.get(job.id) ?? 0;
    const evenOdds = job.acceptedAt + this.durations.pollAfterMs(jobClass, lastSeenRunning, 0.5);
    return Math.min(evenOdds, job.nextPollAt ?? evenOdds);
  }

  private nextDuePoll(keyId: string, kind: Job['kind'], now: number): Job | null {
    const candidates = this.store.runningByNextPoll([...this.batchIds], keyId, this.inFlight.size + 1, kind);
    const job = candidates.find((candidate) => !this.inFlight.has(candidate.id));
    return job && (job.nextPollAt ?? 0) <= now ? job : null;
  }

  private nextReady(keyId: string, kind: Job['kind']): Job | null {
    const candidates = this.store.readyToSubmit([...this.batchIds], keyId, this.inFlight.size + 1, kind);
    return candidates.find((job) => !this.inFlight.has(job.id)) ?? null;
  }

  /** Runs a job's request in its budget slot; a slot whose request never left is given back. */
  private launch(jobId: string, slot: Slot, work: () => Promise<void>): void {
    this.inFlight.add(jobId);
    work()
      .catch((error: unknown) => {
        const job = this.store.job(jobId);
        if (job)
          this.options.onNotice?.(
            job.batchId,
            `Internal error on ${job.kind} ${jobId}: ${(error as Error).message}`,
          );
      })
      .finally(() => {
        slot.release();
        this.inFlight.delete(jobId);
        this.wake?.();
      });
  }

  private async photoUrls(batchId: string, photos: readonly Photo[]): Promise<string[]> {
    try {
      const host = photos.some((photo) => !photo.url)
        ? this.options.hostFor(this.store.batch(batchId)!)
        : null;
      return await Promise.all(photos.map((photo) => photo.url ?? host!.urlFor(photo.path!)));
    } catch (error) {
      throw new PhotoUnreachable((error as Error).message);
    }
  }

  private async requestBody(job: Job): Promise<unknown> {
    if (job.kind === 'shoot') {
      const settings = job.settings as ShootSettings;
      const product = this.store.product(job.productId)!;
      const productImageUrls = await this.photoUrls(job.batchId, product.photos.slice(0, 8));
      return {
        productImageUrls,
        style: settings.style,
        mode: settings.mode,
        ...(settings.modelUrl ? { modelUrl: settings.modelUrl } : {}),
        shots: settings.shots,
        aspectRatio: settings.aspectRatio,
        quality: settings.quality,
        ...(settings.backgroundColor ? { backgroundColor: settings.backgroundColor } : {}),
      };
    }
    const settings = job.settings as VideoSettings;
    const images = this.store
      .assets(job.afterJobId!)
      .filter((asset) => asset.kind === 'image')
      .slice(0, VIDEO_MAX_IMAGES[settings.duration])
      .map((asset) => asset.url);
    return {
      imageUrls: images,
      duration: settings.duration,
      resolution: settings.resolution,
      mode: settings.mode,
      ...(settings.aspectRatio ? { aspectRatio: settings.aspectRatio } : {}),
    };
  }

  private async submit(job: Job, budget: RequestBudget, stamp: Slot): Promise<void> {
    const batch = this.store.batch(job.batchId)!;
    const client = this.client(batch)!;
    let body: unknown;
    try {
      body = await this.requestBody(job);
    } catch (error) {
      if (!(error instanceof PhotoUnreachable)) throw error;
      this.pauseForHosting(batch.id, error.message);
      return;
    }
    this.store.beginSubmit(job.id, body);
    this.options.onChange?.(job.batchId);
    stamp();
    try {
      const remote: RemoteShoot | RemoteVideo =
        job.kind === 'shoot'
          ? await client.createShoot(body as Parameters<ServiceClient['createShoot']>[0])
          : await client.createVideo(body as Parameters<ServiceClient['createVideo']>[0]);
      const jobClass = durationClass(job);
      const accepted = this.store.acceptSubmit(job.id, {
        remoteId: remote.id,
        remoteStatus: remote.status,
        credits: remote.creditsUsed ?? job.price,
        balanceAfter: remote.creditsRemaining,
        deadlineAt: this.now() + this.deadlineMs(jobClass),
        nextPollAt: this.now() + this.pollDelayMs(job, 0),
      });
      if (remote.creditsUsed !== null && remote.creditsUsed !== job.price) {
        this.options.onNotice?.(
          job.batchId,
          `The service charged ${remote.creditsUsed} credits for a ${job.kind} priced at ${job.price}.`,
        );
      }
      if (remote.phase !== 'running') await this.settleRemote(accepted, remote);
    } catch (error) {
      this.submitFailed(job, batch, budget, error);
    } finally {
      this.options.onChange?.(job.batchId);
    }
  }

  private submitFailed(job: Job, batch: Batch, budget: RequestBudget, error: unknown): void {
    if (!(error instanceof ApiError)) {
      this.store.markOutcomeUnknown(job.id, { code: 'internal', message: (error as Error).message });
      return;
    }
    const failure = { code: error.code ?? error.kind, message: error.message };
    if (error.maybeSent) {
      this.store.markOutcomeUnknown(job.id, failure);
      this.options.onNotice?.(
        batch.id,
        `The service may have created ${job.kind} ${job.id} (${error.message}); up to ${job.price} credits at stake. It will not be sent again unless you retry it.`,
      );
      return;
    }
    if (error instanceof RateLimitedError) {
      budget.rateLimited(error.retryAfterMs);
      this.store.returnToWaiting(job.id, failure);
      return;
    }
    if (error instanceof InsufficientCreditsError) {
      this.store.returnToWaiting(job.id, failure);
      this.store.setBatchStatus(batch.id, 'paused', 'insufficient_credits');
      this.options.onNotice?.(batch.id, `Paused: not enough credits (${error.message}).`);
      return;
    }
    if (error instanceof UnauthorizedError) {
      this.store.returnToWaiting(job.id, failure);
      this.refuseKey(batch.keyId, error.message);
      return;
    }
    if (error.kind === 'network') {
      // Nothing reached the service: safe to send again, after a pause (the rate itself is not at fault).
      this.store.returnToWaiting(job.id, failure);
      budget.holdOff(this.options.rateLimit.windowMs / 60);
      return;
    }
    this.store.fail(job.id, failure);
  }

  private refuseKey(keyId: string, message: string): void {
    this.refusedKeys.add(keyId);
    for (const batch of this.batches()) {
      if (batch.keyId !== keyId || batch.status === 'finished' || batch.status === 'cancelled') continue;
      this.store.setBatchStatus(batch.id, 'paused', 'unauthorized');
      this.options.onNotice?.(batch.id, `Stopped: the service refused the API key (${message}).`);
    }
  }

  private async poll(job: Job, budget: RequestBudget, stamp: Slot): Promise<void> {
    const batch = this.store.batch(job.batchId)!;
    const client = this.client(batch)!;
    const now = this.now();
    stamp();
    try {
      const remote =
        job.kind === 'shoot' ? await client.getShoot(job.remoteId!) : await client.getVideo(job.remoteId!);
      this.pollFailedLast.delete(job.id);
      if (remote.phase === 'running') {
        const elapsed = this.now() - (job.acceptedAt ?? now);
        this.lastRunningPollAt.set(job.id, elapsed);
        if (job.deadlineAt !== null && this.now() > job.deadlineAt) {
          this.store.recordPoll(job.id, remote.status, this.now());
          this.store.markStale(job.id);
          this.options.onNotice?.(
            job.batchId,
            `${job.kind} ${job.id} is still unfinished past its deadline.`,
          );
          return;
        }
        const next = this.pollDelayMs(job, elapsed);
        const minGap = this.durations.typicalMs(durationClass(job)) * 0.05;
        this.store.recordPoll(
          job.id,
          remote.status,
          (job.acceptedAt ?? now) + Math.max(next, elapsed + minGap),
        );
        return;
      }
      await this.settleRemote(job, remote);
    } catch (error) {
      this.pollFailedLast.add(job.id);
      this.pollFailed(job, batch, budget, error);
    } finally {
      this.options.onChange?.(job.batchId);
    }
  }

  private pollFailed(job: Job, batch: Batch, budget: RequestBudget, error: unknown): void {
    const retryIn = (ms: number) =>
      this.store.deferPoll(job.id, this.now() + ms * this.scale, (error as Error).message);
    if (error instanceof RateLimitedError) {
      budget.rateLimited(error.retryAfterMs);
      retryIn(error.retryAfterMs ?? 1000);
      return;
    }
    if (error instanceof UnauthorizedError) {
      this.refuseKey(batch.keyId, error.message);
      retryIn(0);
      return;
    }
    if (error instanceof NotFoundError && job.polls >= 5) {
      this.store.fail(job.id, { code: 'not_found', message: 'The service no longer knows this job.' });
      return;
    }
    // A poll is safe to repeat: back off with the number of polls so far and try again.
    retryIn(Math.min(30_000, 1000 * 2 ** Math.min(5, job.polls % 6)));
  }

  private async settleRemote(job: Job, remote: RemoteShoot | RemoteVideo): Promise<void> {
    const elapsed = this.now() - (job.acceptedAt ?? this.now());
    if (remote.phase === 'failed') {
      this.store.failRemote(job.id, remote.status, {
        code: remote.failure?.code ?? 'generation_failed',
        message: remote.failure?.message ?? 'The service failed this job and refunds its credits.',
      });
      return;
    }
    const jobClass = durationClass(job);
    const wasKnown = this.durations.knows(jobClass);
    this.durations.learn(jobClass, this.lastRunningPollAt.get(job.id) ?? null, elapsed);
    this.lastRunningPollAt.delete(job.id);
    this.probing.get(job.kind)?.delete(job.id);
    if (!wasKnown) this.aimProbingPolls(job.kind);
    this.store.completeRemote(job.id, remote.status, this.assetsOf(job, remote));
    this.wake?.();
  }

  /** The first duration of a kind is learned: jobs of that kind that were only probing now aim their polls. */
  private aimProbingPolls(kind: Job['kind']): void {
    const ids = [...this.batchIds];
    for (const job of this.store.runningByNextPoll(ids, null, 10_000)) {
      if (job.kind !== kind || job.acceptedAt === null) continue;
      const elapsed = this.lastRunningPollAt.get(job.id) ?? 0;
      const aimed = job.acceptedAt + this.durations.pollAfterMs(durationClass(job), elapsed, this.quantile());
      if (job.nextPollAt === null || aimed < job.nextPollAt)
        this.store.reschedulePoll(job.id, Math.max(aimed, this.now()));
    }
  }

  private assetsOf(
    job: Job,
    remote: RemoteShoot | RemoteVideo,
  ): Array<Pick<Asset, 'kind' | 'idx' | 'url' | 'path'>> {
    const batch = this.store.batch(job.batchId)!;
    const product = this.store.product(job.productId)!;
    const dir = `${batchFolder(batch)}/${productFolder(product)}`;
    if ('videoUrl' in remote) {
      return remote.videoUrl
        ? [{ kind: 'video', idx: 0, url: remote.videoUrl, path: `${dir}/video.mp4` }]
        : [];
    }
    return remote.images.flatMap((image, index) => {
      const assets: Array<Pick<Asset, 'kind' | 'idx' | 'url' | 'path'>> = [];
      const name = `shot-${index + 1}`;
      if (image.url) {
        assets.push({
          kind: 'image',
          idx: index,
          url: image.url,
          path: `${dir}/${name}${assetExtension(image.url, '.jpg')}`,
        });
      }
      if (image.thumbnailUrl) {
        const extension = assetExtension(image.thumbnailUrl, '.jpg');
        assets.push({
          kind: 'thumbnail',
          idx: index,
          url: image.thumbnailUrl,
          path: `${dir}/thumbnails/${name}${extension}`,
        });
      }
      return assets;
    });
  }

  /** Starts downloads up to the concurrency; returns when a waiting retry is due. */
  private pumpDownloads(now: number): number {
    const concurrency = this.options.downloadConcurrency ?? 4;
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const asset of this.store.pendingAssets([...this.batchIds])) {
      if (this.downloading.size >= concurrency) break;
      if (this.downloading.has(asset.id)) continue;
      const retryAt = this.retryDownloadAt.get(asset.id) ?? 0;
      if (retryAt > now) {
        wakeAt = Math.min(wakeAt, retryAt);
        continue;
      }
      this.downloading.add(asset.id);
      this.download(asset, asset.libraryDir).finally(() => {
        this.downloading.delete(asset.id);
        this.options.onChange?.(asset.batchId);
        this.wake?.();
      });
    }
    return wakeAt;
  }

  private async download(asset: Asset, libraryDir: string): Promise<void> {
    try {
      const result = await downloadVerified(
        asset.url,
        `${libraryDir}/${asset.path}`,
        asset.kind === 'video' ? 'video' : 'image',
      );
      this.store.assetDownloaded(asset.id, result.bytes, result.sha256);
      this.retryDownloadAt.delete(asset.id);
    } catch (error) {
      const transient = error instanceof DownloadError ? error.transient : false;
      const permanent = !transient || asset.attempts + 1 >= DOWNLOAD_ATTEMPTS;
      this.store.assetFailed(asset.id, (error as Error).message, permanent);
      this.retryDownloadAt.set(asset.id, this.now() + 500 * 2 ** asset.attempts * this.scale);
    }
  }

  private settleBatch(batchId: string): void {
    const batch = this.store.batch(batchId);
    if (!batch || batch.status === 'finished') return;
    const { byState } = this.store.totals(batchId);
    const count = (state: JobState) => byState[state] ?? 0;
    // Waiting jobs keep a paused batch open; a cancelled one has none left (cancel moved them).
    if (ACTIVE_JOB_STATES.some((state) => state !== 'waiting' && count(state) > 0)) return;
    if (count('waiting') > 0 && batch.status !== 'cancelled') return;
    this.store.setBatchStatus(batchId, 'finished', batch.statusReason, batch.statusMessage);
    this.options.onChange?.(batchId);
  }

  /**
   * When to poll a job next, in ms after its acceptance. With nothing known of its kind, only a couple of
   * jobs probe (each probe is a request that probably finds the job unfinished); the others wait at the
   * prior until the first duration is learned, when `aimProbingPolls` brings them forward.
   */
  private pollDelayMs(job: Job, elapsedMs: number): number {
    const jobClass = durationClass(job);
    if (!this.durations.knows(jobClass)) {
      const probes = this.probing.get(job.kind) ?? new Set<string>();
      this.probing.set(job.kind, probes);
      if (!probes.has(job.id) && probes.size >= PROBING_JOBS) {
        return Math.max(elapsedMs * 1.6, this.durations.typicalMs(jobClass));
      }
      probes.add(job.id);
    }
    return this.durations.pollAfterMs(jobClass, elapsedMs, this.quantile());
  }

  private quantile(): number {
    return this.options.pollQuantile ?? 0.9;
  }

  /** A job still unfinished this long after acceptance is stale: ten times the typical, at least 10 min. */
  private deadlineMs(jobClass: string): number {
    return Math.max(10 * this.durations.typicalMs(jobClass), 600_000 * this.scale);
  }

  private sleepUntil(at: number): Promise<void> {
    const delay = Math.max(0, Math.min(at - this.now(), 1000));
    return new Promise((resolve) => {
      const timer = setTimeout(done, delay);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
