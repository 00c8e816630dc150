import type { ServiceClient } from '../api/index.ts';
import { describeDataFolderFault, sqliteFaultOf } from '../db/data-folder-fault.ts';
import { DownloadPump } from '../downloads/download-pump.ts';
import { InputCheck } from '../hosting/input-check.ts';
import type { HostingProgress, PhotoHost } from '../hosting/photo-host.ts';
import { PhotoPreparation } from '../hosting/prepare-photos.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import type { BatchId } from '../queue/ids.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch } from '../queue/types.ts';
import type { ResultPreviews } from '../review/previews.ts';
import { describeLocalFault, type LocalFault } from '../util/local-fault.ts';
import type { RateLimit } from './budget.ts';
import { JobRunner } from './job-runner.ts';
import { PollPlanner } from './poll-planner.ts';
import { RequestPump } from './request-pump.ts';
import { ServiceKeys } from './service-keys.ts';
import { settleBatch } from './settle-batch.ts';
import { TimeScales } from './time-scales.ts';

// The run loop, composing the stages of the pipeline: a batch's photos are made reachable
// (`hosting/prepare-photos.ts`), each key's budget pump hands its free slots to the most useful create or
// poll (`request-pump.ts`), the runner sends it and records the answer (`job-runner.ts`, timed by
// `poll-planner.ts`), results are downloaded outside the budget (`downloads/download-pump.ts`), and a batch
// with nothing left to move is settled (`settle-batch.ts`).

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
  /** Which addresses of a job's input may be fetched to check them (default: public ones only). */
  outbound?: () => OutboundPolicy;
  rateLimit: RateLimit;
  now?: () => number;
  /** Polls aim at the moment a job is done with this probability (default 0.9). */
  pollQuantile?: number;
  /**
   * How much faster than real time the sandbox runs (0.1: ten times; default 1). A batch of the sandbox
   * (`Batch.sandbox`) has its duration priors, deadline floor and fixed delays multiplied by it, and learns
   * its durations apart; every other batch runs in real time (`time-scales.ts`).
   */
  sandboxTimeScale?: number;
  maxInFlight?: number;
  /** How long past its deadline a late job is still polled, in real time (default `GIVE_UP_AFTER_MS`). */
  giveUpAfterMs?: number;
  downloadConcurrency?: number;
  onChange?: (batchId: string) => void;
  onNotice?: (batchId: string, message: string) => void;
  /** Keep running when idle, for batches handed over later with `drive` (the app); default false. */
  stayAlive?: boolean;
  /** A batch's local photos being made reachable before its jobs are sent (an upload, for storage). */
  onHostingProgress?: (batchId: string, progress: HostingProgress) => void;
  /** A batch became `finished` (nothing of it left to move): its manifest can be written. */
  onBatchSettled?: (batchId: string) => void;
  /** Makes each downloaded shot's previews for Review (`review/previews.ts`). */
  previews?: ResultPreviews;
  /** Where the queue's database is, to say which folder could not be written. */
  dataDir?: string;
  /**
   * The database could not be written (its disk full, read-only or gone): the engine sends nothing, since
   * it records every job before sending it, and says why. Without `stayAlive` the run ends.
   */
  onHalt?: (message: string) => void;
}

export class Engine {
  private readonly store: QueueStore;
  private readonly now: () => number;
  private readonly batchIds: Set<string>;
  private readonly keys: ServiceKeys;
  private readonly timeScales: TimeScales;
  private readonly photos: PhotoPreparation;
  private readonly runner: JobRunner;
  private readonly requests: RequestPump;
  private readonly downloads: DownloadPump;
  /** Batches that changed since they were last looked at for settling. */
  private readonly changed = new Set<string>();
  /** `drive` calls still making their batch's photos reachable. */
  private preparing = 0;
  private idleWaiters: Array<() => void> = [];
  private running = false;
  private wake: (() => void) | null = null;
  private stopping = false;
  private haltedBy: string | null = null;
  /** A damaged database stays halted: no write will mend it, only a backup put in its place. */
  private haltedForGood = false;

  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.batchIds = new Set(options.batchIds);
    this.timeScales = new TimeScales(
      (batchId) => this.store.batches.get(batchId)?.sandbox ?? false,
      options.sandboxTimeScale ?? 1,
    );
    const onChange = (batchId: string) => this.touch(batchId);
    this.keys = new ServiceKeys(this.store.db, options.clientFor, options.rateLimit, this.now);
    this.photos = new PhotoPreparation({
      store: this.store,
      hostFor: options.hostFor,
      onChange,
      ...(options.onHostingProgress ? { onProgress: options.onHostingProgress } : {}),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    });
    const planner = new PollPlanner({
      db: this.store.db,
      now: this.now,
      timeScales: this.timeScales,
      rateLimit: options.rateLimit,
      ...(options.pollQuantile !== undefined ? { quantile: options.pollQuantile } : {}),
      ...(options.giveUpAfterMs !== undefined ? { giveUpAfterMs: options.giveUpAfterMs } : {}),
    });
    this.runner = new JobRunner({
      store: this.store,
      batchIds: this.batchIds,
      keys: this.keys,
      planner,
      photos: this.photos,
      inputs: new InputCheck({ now: this.now, outbound: options.outbound ?? (() => ({ allowedHosts: [] })) }),
      rateLimit: options.rateLimit,
      now: this.now,
      timeScales: this.timeScales,
      onChange,
      onCompleted: () => this.nudge(),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    });
    this.requests = new RequestPump({
      store: this.store,
      batchIds: this.batchIds,
      keys: this.keys,
      planner,
      runner: this.runner,
      rateLimit: options.rateLimit,
      ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
      onSettled: () => this.nudge(),
      onInternalError: (job, error) => {
        if (!this.haltOn(error))
          options.onNotice?.(job.batchId, `Internal error on ${job.kind} ${job.id}: ${error.message}`);
      },
    });
    this.downloads = new DownloadPump({
      store: this.store,
      now: this.now,
      timeScaleOf: (batchId) => this.timeScales.of(batchId),
      ...(options.downloadConcurrency !== undefined ? { concurrency: options.downloadConcurrency } : {}),
      ...(options.previews ? { previews: options.previews } : {}),
      onSettled: (batchId) => {
        this.touch(batchId);
        this.nudge();
      },
      onLocalFault: (asset, fault) => this.pauseForLibrary(asset.batchId, fault),
      onInternalError: (error) => {
        if (!this.haltOn(error)) throw error;
      },
    });
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
    this.running = true;
    try {
      this.runner.recoverInterruptedCreates();
      await this.photos.prepare([...this.batchIds]);
      while (true) {
        const now = this.now();
        const batches = this.batches();
        let wakeAt = now + this.lookAroundMs(batches);
        if (!this.stopping && !this.haltedBy) {
          wakeAt = Math.min(wakeAt, this.downloads.pump([...this.batchIds], now));
          for (const keyId of this.activeKeys(batches)) {
            if (this.keys.usable(keyId, batches)) wakeAt = Math.min(wakeAt, this.requests.pump(keyId, now));
          }
        }
        this.settleChanged();
        const settled = this.requests.active === 0 && this.downloads.active === 0;
        if (settled && this.haltedBy) {
          // Nothing can move until the data folder is mended: what `whenIdle` waits for.
          if (!this.options.stayAlive) break;
          this.resolveIdle();
        }
        if (settled && (this.stopping || (this.preparing === 0 && !this.haltedBy && this.idle()))) {
          if (this.stopping || !this.options.stayAlive) break;
          for (const batchId of this.batchIds) this.settle(batchId);
          this.resolveIdle();
        }
        await this.sleepUntil(wakeAt);
      }
      for (const budget of this.keys.allBudgets()) budget.compact();
      for (const batchId of this.batchIds) this.settle(batchId);
    } finally {
      this.running = false;
      this.resolveIdle();
    }
  }

  /** Takes on a batch created (or reopened) while the engine runs. */
  async drive(batchId: string): Promise<void> {
    this.preparing++;
    try {
      if (!this.photos.isPrepared(batchId)) await this.photos.prepare([batchId]);
      this.batchIds.add(batchId);
    } finally {
      this.preparing--;
    }
    this.nudge();
  }

  /**
   * A request made outside the run loop with a key the engine may be using (a balance check, the model
   * list): it waits for a slot of that key's budget like the engine's own, so it cannot push a batch over
   * the rate limit.
   */
  async request<T>(keyId: string, send: () => Promise<T>): Promise<T> {
    try {
      return await this.keys.budget(keyId).send(send);
    } finally {
      this.wake?.();
    }
  }

  /** Why the engine sends nothing (its database cannot be written), or null. */
  get halted(): string | null {
    return this.haltedBy;
  }

  /** Whether the halt is for a damaged database, which a successful write does not mend. */
  get haltedByDamage(): boolean {
    return this.haltedForGood;
  }

  /** The database can be written again: the engine goes on where it stopped (never over damage). */
  clearHalt(): void {
    if (this.haltedForGood) return;
    this.haltedBy = null;
    this.nudge();
  }

  /** Looks again now: the user changed something (resumed, retried) that may have work ready. */
  nudge(): void {
    this.wake?.();
  }

  /**
   * Resolves the next time nothing in the driven batches can move without the user: what ends `run` when
   * the engine does not stay alive. With `stayAlive`, the engine carries on and takes what `drive` brings.
   * Resolves at once when the engine does not run.
   */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.nudge();
    });
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Stops sending when the database cannot be written, or is damaged; whether the error was that. */
  private haltOn(error: Error): boolean {
    const fault = sqliteFaultOf(error);
    if (!fault) return false;
    if (fault.kind === 'damaged' && !this.haltedForGood) {
      this.haltedForGood = true;
      this.haltedBy = null;
    }
    if (this.haltedBy) return true;
    this.haltedBy = describeDataFolderFault(fault.kind, this.options.dataDir ?? 'the data folder');
    for (const batchId of this.batchIds) this.options.onNotice?.(batchId, `Stopped: ${this.haltedBy}`);
    this.options.onHalt?.(this.haltedBy);
    this.nudge();
    return true;
  }

  /** Results of this batch cannot be written here: nothing more is created or downloaded until it is mended. */
  private pauseForLibrary(batchId: BatchId, fault: LocalFault): void {
    const batch = this.store.batches.get(batchId);
    if (!batch || (batch.status !== 'running' && batch.status !== 'paused')) return;
    if (batch.statusReason === 'library') return;
    const message = describeLocalFault(fault, batch.libraryDir, this.store.assets.owedBytes(batchId));
    this.store.batches.setStatus(batch.id, 'paused', 'library', message);
    this.options.onNotice?.(batchId, `Paused: ${message}`);
    this.touch(batchId);
  }

  private touch(batchId: string): void {
    this.changed.add(batchId);
    this.options.onChange?.(batchId);
  }

  /** Batches that changed and now have nothing left to move are finished at once, not at the end of the run. */
  private settleChanged(): void {
    for (const batchId of this.changed) if (this.batchIds.has(batchId)) this.settle(batchId);
    this.changed.clear();
  }

  private settle(batchId: string): void {
    try {
      if (!settleBatch(this.store, batchId)) return;
    } catch (error) {
      if (this.haltOn(error as Error)) return;
      throw error;
    }
    this.options.onChange?.(batchId);
    this.options.onBatchSettled?.(batchId);
  }

  private batches(): Batch[] {
    return [...this.batchIds]
      .map((id) => this.store.batches.get(id))
      .filter((batch): batch is Batch => batch !== null);
  }

  /** How long the loop sleeps at most with nothing planned: a second in the time of its fastest batch. */
  private lookAroundMs(batches: readonly Batch[]): number {
    return 1000 * Math.min(1, ...batches.map((batch) => this.timeScales.of(batch.id)));
  }

  private activeKeys(batches: readonly Batch[]): string[] {
    return [...new Set(batches.map((batch) => batch.keyId))].filter((keyId) => !this.keys.isRefused(keyId));
  }

  /** Nothing to poll, to send or to download with a key we can use. */
  private idle(): boolean {
    const ids = [...this.batchIds];
    const batches = this.batches();
    const keys = this.activeKeys(batches).filter((keyId) => this.keys.usable(keyId, batches));
    const running = keys.some((keyId) => this.store.jobs.runningByNextPoll(ids, keyId, 1).length > 0);
    const ready = keys.some((keyId) => this.store.jobs.readyToSubmit(ids, keyId, 1).length > 0);
    return !running && !ready && this.store.assets.pending(ids).length === 0;
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
