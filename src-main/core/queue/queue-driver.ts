import type { QueueOwnerView, UploadProgress } from '../../shared/models.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { RemoteShoot, RemoteVideo } from '../api/index.ts';
import type { Logger } from '../app/context.ts';
import type { CoreEvents } from '../app/events.ts';
import { throttlePerKey } from '../app/events.ts';
import { isDirectory, libraryWritable } from '../downloads/library-check.ts';
import type { PhotoReachService } from '../hosting/photo-reach.ts';
import {
  describeHolder,
  type Lease,
  LeaseHeldError,
  type LeaseHolder,
  readLeaseHolder,
  runningHolder,
  tryAcquireLease,
} from '../lease.ts';
import { writeManifest } from '../manifest.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import type { ResultPreviews } from '../review/previews.ts';
import { type RateLimit, RequestBudget } from '../scheduler/budget.ts';
import { Engine } from '../scheduler/engine.ts';
import { forgetServiceTrouble, serviceTroubleOf } from '../scheduler/service-trouble.ts';
import { describeLocalFault, localFaultOf } from '../util/local-fault.ts';
import { lostResultsMessage, type Recovery, recoverResults, unservedMessage } from './recovery.ts';
import type { QueueStore } from './store.ts';
import type { Batch, Job } from './types.ts';
import { type BatchFacts, batchProgress } from './views.ts';

// The queue's one owner in this process: it takes the data folder's lease, runs the engine while it holds
// it, turns the engine's changes into typed events, and writes a batch's manifest when it finishes,
// whichever front end drives it.

/**
 * `require`: refuse to start when another process holds the queue (`adbatch run`, `resume`).
 * `wait`: work beside the holder without driving anything, and take over the moment it lets go (the app).
 * `none`: never drive (`adbatch status`, decisions, scans).
 */
export type LeaseMode = 'require' | 'wait' | 'none';

export interface QueueDriverOptions {
  dataDir: string;
  /** Who this process is, for another process's refusal: "Adbatch", "adbatch run". */
  holderName: string;
  leaseMode: LeaseMode;
  /** Drive every unfinished batch, including those created or reopened by another process (the app). */
  driveUnfinished: boolean;
  store: QueueStore;
  services: ServiceAccess;
  photos: PhotoReachService;
  /** Which addresses from input may be fetched (the hosts allowed in Settings and for this session). */
  outbound: () => OutboundPolicy;
  events: CoreEvents;
  log: Logger;
  rateLimit: () => RateLimit;
  timeScale: number;
  /** Makes each downloaded shot's previews for Review. */
  previews?: ResultPreviews;
  /** Run when a batch finished: the check against the service's usage report (batch-check.ts). */
  afterBatch?: (batchId: string) => Promise<void>;
}

const PROGRESS_INTERVAL_MS = 100;
/** How often a process waiting for the lease tries again, and the app looks for batches to take on. */
const LOOK_AGAIN_MS = 1000;
/** How often a batch paused for its library checks whether it can be written again. */
const LIBRARY_CHECK_MS = 5000;

export class QueueDriver {
  private lease: Lease | null = null;
  private engine: Engine | null = null;
  private engineRun: Promise<void> | null = null;
  private readonly driven = new Set<string>();
  private readonly lastStatus = new Map<string, string>();
  private readonly uploads = new Map<string, UploadProgress>();
  private readonly manifestWrites = new Map<string, Promise<void>>();
  private readonly afterBatchRuns = new Set<Promise<void>>();
  private readonly idleBudgets = new Map<string, RequestBudget>();
  private readonly libraryCheckedAt = new Map<string, number>();
  private dataFolderCheckedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  readonly facts: BatchFacts;
  private readonly progress: ReturnType<typeof throttlePerKey>;

  constructor(private readonly options: QueueDriverOptions) {
    this.facts = {
      key: (batch) => options.services.keyOf(batch),
      upload: (batchId) => this.uploads.get(batchId) ?? null,
      pace: () => ({ rateLimit: options.rateLimit(), sandboxTimeScale: options.timeScale }),
      // What the requests of the key saw, in whichever process drives them.
      service: (batch) =>
        serviceTroubleOf(options.store.db, batch.keyId, Date.now(), batch.sandbox ? options.timeScale : 1),
      now: Date.now,
    };
    this.progress = throttlePerKey(PROGRESS_INTERVAL_MS, (batchId) => this.emitProgress(batchId));
  }

  /** Takes the lease as the mode says; throws LeaseHeldError for `require` when it is held. */
  async start(): Promise<void> {
    for (const batch of this.options.store.batches.unfinished()) {
      this.lastStatus.set(batch.id, statusKey(batch));
    }
    if (this.options.leaseMode === 'none') return;
    if (await this.tryTakeOver()) return;
    if (this.options.leaseMode === 'require') {
      throw new LeaseHeldError(readLeaseHolder(this.options.dataDir), this.options.dataDir);
    }
    this.options.log.info(`${describeHolder(this.holder())} holds the queue: waiting to take over`);
    this.schedule();
  }

  /** Whether this process drives the queue, and who does otherwise. */
  owner(): QueueOwnerView {
    if (this.lease) {
      const engine = this.engine;
      return {
        driving: true,
        heldBy: null,
        fault: engine?.halted ?? null,
        databaseDamaged: engine?.haltedByDamage ?? false,
      };
    }
    const observer = { fault: null, databaseDamaged: false };
    if (this.options.leaseMode === 'none') {
      // A look only (`adbatch status`): who drives, if anyone does, so that a batch nobody drives is said so.
      const holder = runningHolder(this.options.dataDir);
      return { driving: false, heldBy: holder && describeHolder(holder), ...observer };
    }
    return { driving: false, heldBy: describeHolder(this.holder()), ...observer };
  }

  /** Takes on a batch created or reopened here; another process that owns the queue picks it up itself. */
  async drive(batch: Batch): Promise<void> {
    if (!this.engine) {
      this.progress.touch(batch.id);
      return;
    }
    if (batch.sandbox) await this.options.services.ensureSandbox();
    this.driven.add(batch.id);
    // An upload to storage can take minutes: the caller answers at once and the upload shows as progress.
    this.engine
      .drive(batch.id)
      .then(() => this.progress.touch(batch.id))
      .catch((error) => this.options.log.error(`batch ${batch.id} could not be driven`, error));
    this.progress.touch(batch.id);
  }

  nudge(batchId?: string): void {
    this.engine?.nudge();
    if (batchId) this.progress.touch(batchId);
  }

  /**
   * A request with a key outside the engine's own work, always in that key's budget: the engine's while it
   * runs; otherwise one over the same request log in the database, which also holds what another process
   * driving the queue has sent with the key, so a balance check from here cannot push it into a 429.
   */
  request<T>(keyId: string, send: () => Promise<T>): Promise<T> {
    if (this.engine) return this.engine.request(keyId, send);
    let budget = this.idleBudgets.get(keyId);
    if (!budget) {
      budget = new RequestBudget(this.options.store.db, keyId, this.options.rateLimit(), Date.now);
      this.idleBudgets.set(keyId, budget);
    }
    return budget.send(send);
  }

  /** A job as the service tells it now (fresh result URLs), asked in its key's budget. */
  remoteJob = (batch: Batch, job: Job): Promise<RemoteShoot | RemoteVideo> => {
    const client = this.options.services.clientForBatch(batch);
    if (!client || !job.remoteId)
      return Promise.reject(new Error(`the service cannot be asked for ${job.id}`));
    const remoteId = job.remoteId;
    return this.request<RemoteShoot | RemoteVideo>(batch.keyId, () =>
      job.kind === 'shoot' ? client.getShoot(remoteId) : client.getVideo(remoteId),
    );
  };

  /**
   * Goes on with a batch whose results were brought back, saying how many the disk had lost and what the
   * service no longer serves of them.
   */
  async goOnAfter(recovery: Recovery): Promise<void> {
    const { id } = recovery.batch;
    const lost = lostResultsMessage(recovery);
    if (lost) this.options.events.emit('batches:notice', { id, message: lost });
    const unserved = unservedMessage(this.options.store, recovery.unserved);
    if (unserved) this.options.events.emit('batches:notice', { id, message: unserved });
    await this.drive(recovery.batch);
  }

  /** The request budget is fixed when the engine starts: a new margin restarts it, after requests in flight. */
  async restartEngine(): Promise<void> {
    if (!this.engine) return;
    this.engine.stop();
    await this.engineRun;
    this.startEngine([...this.driven]);
  }

  /**
   * Resolves once nothing this process drives can move without the user (the engine's own judgement):
   * what a front end that exits when its batches are done waits for (`adbatch run`).
   */
  whenIdle(): Promise<void> {
    return this.engine ? this.engine.whenIdle() : Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.engine?.stop();
    await this.engineRun;
    this.progress.flush();
    for (const batchId of this.driven) await this.writeManifestOf(batchId);
    await Promise.all(this.afterBatchRuns);
    this.lease?.release();
    this.lease = null;
  }

  private holder(): LeaseHolder | null {
    return readLeaseHolder(this.options.dataDir);
  }

  private async tryTakeOver(): Promise<boolean> {
    if (this.stopped) return false;
    const attempt = tryAcquireLease(this.options.dataDir, this.options.holderName);
    if (!attempt.ok) return false;
    this.lease = attempt.lease;
    forgetServiceTrouble(this.options.store.db);
    const unfinished = this.options.driveUnfinished ? this.drivable() : [];
    if (unfinished.some((batch) => batch.sandbox)) await this.options.services.ensureSandbox();
    await this.options.photos.start();
    if (this.stopped) return false;
    this.startEngine(unfinished.map((batch) => batch.id));
    this.options.events.emit('queue:owner', this.owner());
    return true;
  }

  /** Waiting for the lease, or (as owner) taking on batches another process created or reopened. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.lookAgain()
        .catch((error) => this.options.log.error('could not look at the queue', error))
        .finally(() => this.schedule());
    }, LOOK_AGAIN_MS);
    this.timer.unref();
  }

  private async lookAgain(): Promise<void> {
    if (!this.lease) {
      if (await this.tryTakeOver())
        this.options.log.info('the queue was released: this process drives it now');
      else this.refreshObserved();
      return;
    }
    for (const batch of this.drivable()) {
      if (!this.driven.has(batch.id)) await this.drive(batch);
    }
    await this.resumeWhereLibraryMended();
    await this.goOnWhereDataFolderMended();
  }

  /** An engine stopped by a data folder it could not write goes on once a write there succeeds again. */
  private async goOnWhereDataFolderMended(): Promise<void> {
    const engine = this.engine;
    if (!engine?.halted || engine.haltedByDamage) return;
    if (Date.now() - this.dataFolderCheckedAt < LIBRARY_CHECK_MS) return;
    this.dataFolderCheckedAt = Date.now();
    if (!(await libraryWritable(this.options.dataDir, 0))) return;
    engine.clearHalt();
    this.options.log.info('the data folder can be written again: the queue goes on');
    this.options.events.emit('queue:owner', this.owner());
  }

  /**
   * A batch paused because its results could not be written resumes by itself once they can (space freed,
   * the folder put back or made again, a drive mounted again): the app notices, as a designer would expect,
   * without a click. The batch's folder is made again and what went missing is downloaded again, free.
   * Checked every few seconds per library, not every second; a library still gone is not made here.
   */
  private async resumeWhereLibraryMended(): Promise<void> {
    const { store, events } = this.options;
    for (const batchId of this.driven) {
      const batch = store.batches.get(batchId);
      if (batch?.status !== 'paused' || batch.statusReason !== 'library') continue;
      const checkedAt = this.libraryCheckedAt.get(batchId) ?? 0;
      if (Date.now() - checkedAt < LIBRARY_CHECK_MS) continue;
      this.libraryCheckedAt.set(batchId, Date.now());
      if (!(await isDirectory(batch.libraryDir))) continue;
      if (!(await libraryWritable(batch.libraryDir, store.assets.owedBytes(batchId)))) continue;
      await this.goOnAfter(
        await recoverResults({ store, remoteJob: this.remoteJob }, batch, { owed: 'lost' }),
      );
      events.emit('batches:notice', {
        id: batchId,
        message: 'The library can be written again: downloading what was paid for.',
      });
      this.nudge(batchId);
    }
  }

  /** Unfinished batches whose key this process holds: the others wait for a process that does. */
  private drivable(): Batch[] {
    return this.options.store.batches.unfinished().filter((batch) => this.options.services.keyOf(batch).held);
  }

  /** Beside another owner, progress is read from the shared database and sent on like our own. */
  private refreshObserved(): void {
    for (const batch of this.options.store.batches.unfinished()) this.progress.touch(batch.id);
  }

  private startEngine(batchIds: string[]): void {
    for (const id of batchIds) this.driven.add(id);
    const { store, services, photos, log } = this.options;
    const engine = new Engine({
      store,
      batchIds,
      stayAlive: true,
      hostFor: (batch) => photos.hostFor(batch),
      outbound: this.options.outbound,
      rateLimit: this.options.rateLimit(),
      sandboxTimeScale: this.options.timeScale,
      clientFor: (batch) => services.clientForBatch(batch),
      onChange: (batchId) => this.progress.touch(batchId),
      onHostingProgress: (batchId, upload) => {
        const wasUploading = this.uploads.has(batchId);
        if (upload.done < upload.total) this.uploads.set(batchId, upload);
        else this.uploads.delete(batchId);
        // An upload's start and end are delivered at once: a short upload begins and ends inside one
        // throttle interval, and a listener (the CLI's "Uploading photos" line) would not see it at all.
        if (wasUploading !== this.uploads.has(batchId)) this.progress.now(batchId);
        else this.progress.touch(batchId);
      },
      onNotice: (batchId, message) => {
        log.warn(`${batchId}: ${message}`);
        this.options.events.emit('batches:notice', { id: batchId, message });
      },
      onBatchSettled: (batchId) => {
        void this.writeManifestOf(batchId);
        this.runAfterBatch(batchId);
      },
      dataDir: this.options.dataDir,
      ...(this.options.previews ? { previews: this.options.previews } : {}),
      onHalt: (message) => {
        log.warn(message);
        this.options.events.emit('queue:owner', this.owner());
      },
    });
    this.engine = engine;
    this.engineRun = engine.run().catch((error) => log.error('the engine stopped', error));
    if (this.options.driveUnfinished && !this.timer) this.schedule();
  }

  private emitProgress(batchId: string): void {
    const { store, events } = this.options;
    const batch = store.batches.get(batchId);
    if (!batch) return;
    if (batch.statusReason === 'hosting') this.uploads.delete(batchId);
    events.emit('batches:progress', batchProgress(store, batch, this.facts));
    const status = statusKey(batch);
    if (this.lastStatus.get(batchId) !== status) {
      this.lastStatus.set(batchId, status);
      events.emit('batches:changed', { id: batchId });
      if (batch.statusReason === 'unauthorized') this.markKeyRefused(batch);
    }
  }

  private markKeyRefused(batch: Batch): void {
    const account = this.options.services.accountOfBatch(batch);
    if (!account || this.options.services.isSession(account.id)) return;
    this.options.services.markRefused(account.id);
    this.options.events.emit('accounts:changed', { id: account.id });
  }

  /**
   * manifest.json beside the results, when a driven batch finishes and when this process stops driving it.
   * Writes of one batch are chained: two at once would race on the same `.part` file.
   */
  /** The check after a finished batch, awaited by stop() so that a closing process does not cut it off. */
  private runAfterBatch(batchId: string): void {
    const { afterBatch, log } = this.options;
    if (!afterBatch || this.stopped) return;
    const run = afterBatch(batchId)
      .catch((error) => log.error(`the check after ${batchId} failed`, error))
      .finally(() => this.afterBatchRuns.delete(run));
    this.afterBatchRuns.add(run);
  }

  private writeManifestOf(batchId: string): Promise<void> {
    const previous = this.manifestWrites.get(batchId) ?? Promise.resolve();
    const next = previous.then(() =>
      writeManifest(this.options.store, batchId).then(
        () => {},
        (error) => {
          const fault = localFaultOf(error);
          const batch = this.options.store.batches.get(batchId);
          if (!fault || !batch) {
            this.options.log.error(`the manifest of ${batchId} could not be written`, error);
            return;
          }
          const message = `manifest.json was not written. ${describeLocalFault(fault, batch.libraryDir, 0)}`;
          this.options.log.warn(`${batchId}: ${message}`);
          this.options.events.emit('batches:notice', { id: batchId, message });
        },
      ),
    );
    this.manifestWrites.set(batchId, next);
    return next;
  }
}

function statusKey(batch: Batch): string {
  return `${batch.status}:${batch.statusReason ?? ''}`;
}
