import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { quoteShoot, quoteVideo } from '../pricing.ts';
import { productFingerprint } from './fingerprint.ts';
import {
  ACTIVE_JOB_STATES,
  type BatchStatus,
  canMove,
  canMoveBatch,
  type JobState,
  type PauseReason,
} from './states.ts';
import type {
  Asset,
  Batch,
  EarlierShot,
  Failure,
  Job,
  NewBatch,
  Product,
  ShootSettings,
  VideoSettings,
} from './types.ts';

// The durable queue over one SQLite file. Every state change goes through `move`, which checks the
// transition table and records the event in the same transaction, so the history is never out of step.

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

type Row = Record<string, unknown>;

function toBatch(row: Row): Batch {
  return {
    id: row.id as string,
    name: row.name as string,
    createdAt: row.created_at as number,
    baseUrl: row.base_url as string,
    keyId: row.key_id as string,
    keyHint: row.key_hint as string,
    sandbox: row.sandbox === 1,
    libraryDir: row.library_dir as string,
    shoot: JSON.parse(row.shoot_settings as string) as ShootSettings,
    video: row.video_settings ? (JSON.parse(row.video_settings as string) as VideoSettings) : null,
    quotedCredits: row.quoted_credits as number,
    status: row.status as BatchStatus,
    statusReason: (row.status_reason as PauseReason | null) ?? null,
    statusMessage: (row.status_message as string | null) ?? null,
    updatedAt: row.updated_at as number,
  };
}

function toProduct(row: Row): Product {
  return {
    id: row.id as string,
    batchId: row.batch_id as string,
    position: row.position as number,
    name: row.name as string,
    sourceDir: row.source_dir as string,
    path: row.rel_path as string,
    fingerprint: (row.fingerprint as string | null) ?? null,
    photos: JSON.parse(row.photos as string),
  };
}

function toJob(row: Row): Job {
  return {
    id: row.id as string,
    batchId: row.batch_id as string,
    productId: row.product_id as string,
    kind: row.kind as Job['kind'],
    afterJobId: (row.after_job_id as string | null) ?? null,
    settings: JSON.parse(row.settings as string),
    request: row.request ? JSON.parse(row.request as string) : null,
    price: row.price as number,
    state: row.state as JobState,
    remoteId: (row.remote_id as string | null) ?? null,
    remoteStatus: (row.remote_status as string | null) ?? null,
    creditsCharged: row.credits_charged as number,
    creditsRefunded: row.credits_refunded as number,
    posts: row.posts as number,
    polls: row.polls as number,
    createdAt: row.created_at as number,
    submittedAt: (row.submitted_at as number | null) ?? null,
    acceptedAt: (row.accepted_at as number | null) ?? null,
    finishedAt: (row.finished_at as number | null) ?? null,
    nextPollAt: (row.next_poll_at as number | null) ?? null,
    deadlineAt: (row.deadline_at as number | null) ?? null,
    failureCode: (row.failure_code as string | null) ?? null,
    failureMessage: (row.failure_message as string | null) ?? null,
  };
}

function toAsset(row: Row): Asset {
  return {
    id: row.id as number,
    jobId: row.job_id as string,
    kind: row.kind as Asset['kind'],
    idx: row.idx as number,
    url: row.url as string,
    path: row.path as string,
    state: row.state as Asset['state'],
    bytes: (row.bytes as number | null) ?? null,
    sha256: (row.sha256 as string | null) ?? null,
    attempts: row.attempts as number,
    error: (row.error as string | null) ?? null,
  };
}

const JOB_COLUMNS = new Set([
  'request',
  'remote_id',
  'remote_status',
  'credits_charged',
  'credits_refunded',
  'posts',
  'polls',
  'submitted_at',
  'accepted_at',
  'finished_at',
  'next_poll_at',
  'deadline_at',
  'failure_code',
  'failure_message',
]);
type JobPatch = Partial<Record<string, string | number | null>>;

export interface RemoteAcceptance {
  remoteId: string;
  remoteStatus: string;
  credits: number;
  balanceAfter: number | null;
  deadlineAt: number;
  nextPollAt: number;
}

export interface BatchTotals {
  jobs: number;
  byState: Partial<Record<JobState, number>>;
  charged: number;
  refunded: number;
  /** Credits that outcome-unknown jobs may have cost. */
  atStake: number;
  /** Jobs the service accepted (a remote id recorded), whatever became of them since. */
  created: number;
}

const EMPTY_TOTALS: BatchTotals & { products: number } = {
  jobs: 0,
  byState: {},
  charged: 0,
  refunded: 0,
  atStake: 0,
  created: 0,
  products: 0,
};

export class QueueStore {
  constructor(
    readonly db: Db,
    private readonly now: () => number,
  ) {}

  createBatch(input: NewBatch): Batch {
    const id = newId('b');
    const now = this.now();
    const shootPrice = quoteShoot(input.shoot).credits;
    const videoPrice = input.video ? quoteVideo(input.video) : 0;
    const quoted = input.products.length * (shootPrice + videoPrice);
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO batches (id, name, created_at, base_url, key_id, key_hint, sandbox, library_dir,
             shoot_settings, video_settings, quoted_credits, status, status_reason, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', NULL, ?)`,
        )
        .run(
          id,
          input.name,
          now,
          input.baseUrl,
          input.keyId,
          input.keyHint,
          input.sandbox ? 1 : 0,
          input.libraryDir,
          JSON.stringify(input.shoot),
          input.video ? JSON.stringify(input.video) : null,
          quoted,
          now,
        );
      const insertProduct = this.db.prepare(
        `INSERT INTO products (id, batch_id, position, name, source_dir, rel_path, fingerprint, photos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertJob = this.db.prepare(
        `INSERT INTO jobs (id, batch_id, product_id, kind, after_job_id, settings, price, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', ?)`,
      );
      input.products.forEach((product, position) => {
        const productId = newId('p');
        insertProduct.run(
          productId,
          id,
          position,
          product.name,
          product.sourceDir,
          product.path ?? '',
          productFingerprint(product.photos, input.shoot, input.video),
          JSON.stringify(product.photos),
        );
        const shootId = newId('j');
        insertJob.run(shootId, id, productId, 'shoot', null, JSON.stringify(input.shoot), shootPrice, now);
        if (input.video) {
          insertJob.run(
            newId('j'),
            id,
            productId,
            'video',
            shootId,
            JSON.stringify(input.video),
            videoPrice,
            now,
          );
        }
      });
    })();
    return this.batch(id)!;
  }

  batch(id: string): Batch | null {
    const row = this.db.prepare('SELECT * FROM batches WHERE id = ?').get(id) as Row | undefined;
    return row ? toBatch(row) : null;
  }

  batches(): Batch[] {
    return (this.db.prepare('SELECT * FROM batches ORDER BY created_at').all() as Row[]).map(toBatch);
  }

  /** Batches whose jobs still have work, or that the user has not seen finish. */
  unfinishedBatches(): Batch[] {
    return (
      this.db.prepare("SELECT * FROM batches WHERE status != 'finished' ORDER BY created_at").all() as Row[]
    ).map(toBatch);
  }

  setBatchStatus(
    id: string,
    status: BatchStatus,
    reason: PauseReason | null = null,
    message: string | null = null,
  ): void {
    const batch = this.batch(id);
    if (!batch) throw new Error(`no batch ${id}`);
    if (batch.status === status && batch.statusReason === reason && batch.statusMessage === message) return;
    if (batch.status !== status && !canMoveBatch(batch.status, status)) {
      throw new Error(`batch ${id} cannot move from ${batch.status} to ${status}`);
    }
    this.db
      .prepare(
        'UPDATE batches SET status = ?, status_reason = ?, status_message = ?, updated_at = ? WHERE id = ?',
      )
      .run(status, reason, message, this.now(), id);
  }

  /** The user's pause: nothing new is created; what was created is still followed and downloaded. */
  pauseBatch(id: string): void {
    this.setBatchStatus(id, 'paused', 'user');
  }

  /** Lets a paused batch create jobs again (after a pause, a top-up of credits, or a new key). */
  resumeBatch(id: string): void {
    const batch = this.batch(id);
    if (batch?.status === 'paused') this.setBatchStatus(id, 'running', null);
  }

  /** Cancels what was not created yet; created jobs are still followed to their end and downloaded. */
  cancelBatch(id: string): number {
    return this.db.transaction(() => {
      const waiting = this.db
        .prepare("SELECT id FROM jobs WHERE batch_id = ? AND state = 'waiting'")
        .all(id) as Array<{
        id: string;
      }>;
      for (const job of waiting)
        this.moveInTransaction(job.id, 'cancelled', {}, { reason: 'batch cancelled' });
      this.setBatchStatus(id, 'cancelled', null);
      return waiting.length;
    })();
  }

  /**
   * The user's word to send a failed or outcome-unknown job again: it costs credits again (the service
   * refunded a failed job; an unknown one may have been charged already). Its skipped videos wait again.
   */
  retryJob(jobId: string): Job {
    return this.db.transaction(() => {
      const before = this.job(jobId)!;
      const job = this.moveInTransaction(
        jobId,
        'waiting',
        {
          remote_status: null,
          next_poll_at: null,
          deadline_at: null,
          failure_code: null,
          failure_message: null,
        },
        { decision: 'retry', previousState: before.state, previousRemoteId: before.remoteId },
      );
      this.restoreDependants(jobId);
      this.reopenBatch(job.batchId);
      return job;
    })();
  }

  /** The user's word that an outcome-unknown job is not to be sent again. */
  abandonJob(jobId: string): Job {
    return this.move(jobId, 'cancelled', {}, { decision: 'abandon' });
  }

  /** The user's word to follow a stale job again, with a new deadline. */
  recheckJob(jobId: string, deadlineAt: number): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(
        jobId,
        'running',
        { next_poll_at: this.now(), deadline_at: deadlineAt, failure_code: null, failure_message: null },
        { decision: 'recheck' },
      );
      this.restoreDependants(jobId);
      this.reopenBatch(job.batchId);
      return job;
    })();
  }

  products(batchId: string): Product[] {
    return (
      this.db.prepare('SELECT * FROM products WHERE batch_id = ? ORDER BY position').all(batchId) as Row[]
    ).map(toProduct);
  }

  productCount(batchId: string): number {
    return (
      this.db.prepare('SELECT COUNT(*) AS n FROM products WHERE batch_id = ?').get(batchId) as { n: number }
    ).n;
  }

  product(id: string): Product | null {
    const row = this.db.prepare('SELECT * FROM products WHERE id = ?').get(id) as Row | undefined;
    return row ? toProduct(row) : null;
  }

  /**
   * Products of earlier batches with these fingerprints that were shot (every job done) or are being shot
   * (a job still active). Failed, cancelled or abandoned ones do not count: nothing came of them.
   */
  earlierShots(fingerprints: readonly string[]): Map<string, EarlierShot> {
    const found = new Map<string, EarlierShot>();
    const active = ACTIVE_JOB_STATES.map(() => '?').join(', ');
    const query = this.db.prepare(
      `SELECT p.fingerprint, p.name AS product_name, b.id AS batch_id, b.name AS batch_name,
         SUM(j.state = 'done') AS done, SUM(j.state IN (${active})) AS active, COUNT(*) AS jobs
       FROM products p JOIN batches b ON b.id = p.batch_id JOIN jobs j ON j.product_id = p.id
       WHERE p.fingerprint = ?
       GROUP BY p.id ORDER BY b.created_at DESC`,
    );
    for (const fingerprint of new Set(fingerprints)) {
      for (const row of query.all(...ACTIVE_JOB_STATES, fingerprint) as Row[]) {
        const state = row.done === row.jobs ? 'done' : (row.active as number) > 0 ? 'running' : null;
        if (!state) continue;
        const previous = found.get(fingerprint);
        if (previous?.state === 'done') continue;
        found.set(fingerprint, {
          batchId: row.batch_id as string,
          batchName: row.batch_name as string,
          productName: row.product_name as string,
          state,
        });
      }
    }
    return found;
  }

  job(id: string): Job | null {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as Row | undefined;
    return row ? toJob(row) : null;
  }

  jobs(batchId: string): Job[] {
    return (
      this.db
        .prepare(
          `SELECT jobs.* FROM jobs JOIN products ON products.id = jobs.product_id
           WHERE jobs.batch_id = ? ORDER BY products.position, jobs.kind`,
        )
        .all(batchId) as Row[]
    ).map(toJob);
  }

  jobsInState(state: JobState): Job[] {
    return (this.db.prepare('SELECT * FROM jobs WHERE state = ?').all(state) as Row[]).map(toJob);
  }

  /**
   * Jobs of these batches, made with this key, ready to be sent: their batch runs and, for a video, its
   * shoot has completed. Oldest batch first, videos before shoots (they finish a product sooner).
   */
  readyToSubmit(batchIds: readonly string[], keyId: string, limit: number, kind?: Job['kind']): Job[] {
    return (
      this.db
        .prepare(
          `SELECT jobs.* FROM jobs
           JOIN batches ON batches.id = jobs.batch_id
           JOIN products ON products.id = jobs.product_id
           LEFT JOIN jobs AS before ON before.id = jobs.after_job_id
           WHERE jobs.state = 'waiting' AND batches.status = 'running' AND batches.key_id = ?
             AND jobs.batch_id IN (SELECT value FROM json_each(?))
             AND (jobs.after_job_id IS NULL OR before.state IN ('downloading', 'done'))
             AND (? IS NULL OR jobs.kind = ?)
           ORDER BY batches.created_at, jobs.kind DESC, products.position
           LIMIT ?`,
        )
        .all(keyId, JSON.stringify(batchIds), kind ?? null, kind ?? null, limit) as Row[]
    ).map(toJob);
  }

  /** Running jobs of these batches, made with this key, soonest poll first. */
  runningByNextPoll(
    batchIds: readonly string[],
    keyId: string | null,
    limit: number,
    kind?: Job['kind'],
  ): Job[] {
    return (
      this.db
        .prepare(
          `SELECT jobs.* FROM jobs JOIN batches ON batches.id = jobs.batch_id
           WHERE jobs.state = 'running' AND jobs.batch_id IN (SELECT value FROM json_each(?))
             AND (? IS NULL OR batches.key_id = ?) AND (? IS NULL OR jobs.kind = ?)
           ORDER BY jobs.next_poll_at LIMIT ?`,
        )
        .all(JSON.stringify(batchIds), keyId, keyId, kind ?? null, kind ?? null, limit) as Row[]
    ).map(toJob);
  }

  /** Moves a job along the transition table, recording the event; the patch is applied in the same write. */
  move(jobId: string, to: JobState, patch: JobPatch = {}, detail?: unknown): Job {
    return this.db.transaction(() => this.moveInTransaction(jobId, to, patch, detail))();
  }

  /** Commits the intent before the POST: after this, a crash leaves the job `submitting`, never re-sent. */
  beginSubmit(jobId: string, request: unknown): Job {
    const job = this.job(jobId)!;
    return this.move(jobId, 'submitting', {
      request: JSON.stringify(request),
      submitted_at: this.now(),
      posts: job.posts + 1,
    });
  }

  /** Records a 201: the remote id, the charge and the running state in one transaction. */
  acceptSubmit(jobId: string, accepted: RemoteAcceptance): Job {
    return this.db.transaction(() => {
      const now = this.now();
      const job = this.moveInTransaction(jobId, 'running', {
        remote_id: accepted.remoteId,
        remote_status: accepted.remoteStatus,
        accepted_at: now,
        credits_charged: accepted.credits,
        deadline_at: accepted.deadlineAt,
        next_poll_at: accepted.nextPollAt,
      });
      this.addLedger(job, 'charge', accepted.credits, accepted.balanceAfter);
      this.event(jobId, 'remote_status', accepted.remoteStatus);
      return job;
    })();
  }

  /** The service answered and created nothing (429, 402, 401): the job waits to be sent again. */
  returnToWaiting(jobId: string, failure: Failure): Job {
    return this.move(jobId, 'waiting', {}, failure);
  }

  recordPoll(jobId: string, remoteStatus: string, nextPollAt: number): void {
    this.db.transaction(() => {
      const job = this.job(jobId)!;
      this.db
        .prepare('UPDATE jobs SET remote_status = ?, polls = polls + 1, next_poll_at = ? WHERE id = ?')
        .run(remoteStatus, nextPollAt, jobId);
      if (job.remoteStatus !== remoteStatus) this.event(jobId, 'remote_status', remoteStatus);
    })();
  }

  reschedulePoll(jobId: string, nextPollAt: number): void {
    this.db
      .prepare("UPDATE jobs SET next_poll_at = ? WHERE id = ? AND state = 'running'")
      .run(nextPollAt, jobId);
  }

  /** Defers a poll (a 429, a transient error) without counting it as an observation. */
  deferPoll(jobId: string, nextPollAt: number, error?: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE jobs SET polls = polls + 1, next_poll_at = ? WHERE id = ?')
        .run(nextPollAt, jobId);
      if (error) this.event(jobId, 'error', error);
    })();
  }

  /** The service completed the job: record its results to download, and move to `downloading`. */
  completeRemote(
    jobId: string,
    remoteStatus: string,
    assets: Array<Pick<Asset, 'kind' | 'idx' | 'url' | 'path'>>,
  ): Job {
    return this.db.transaction(() => {
      this.moveInTransaction(jobId, 'downloading', {
        remote_status: remoteStatus,
        polls: (this.job(jobId)?.polls ?? 0) + 1,
        next_poll_at: null,
      });
      this.event(jobId, 'remote_status', remoteStatus);
      const insert = this.db.prepare(
        `INSERT INTO assets (job_id, kind, idx, url, path, state) VALUES (?, ?, ?, ?, ?, 'pending')
         ON CONFLICT (job_id, kind, idx) DO UPDATE SET url = excluded.url`,
      );
      for (const asset of assets) insert.run(jobId, asset.kind, asset.idx, asset.url, asset.path);
      if (assets.length === 0) {
        const failure = {
          code: 'no_results',
          message: 'The service said it completed, but gave no result to download.',
        };
        this.moveInTransaction(
          jobId,
          'failed',
          { finished_at: this.now(), failure_code: failure.code, failure_message: failure.message },
          failure,
        );
        this.skipDependants(jobId, `Its shoot did not succeed: ${failure.message}`);
      }
      return this.job(jobId)!;
    })();
  }

  /** The service failed the job: it refunds, so the ledger shows a refund, and dependants are skipped. */
  failRemote(jobId: string, remoteStatus: string, failure: Failure): Job {
    return this.db.transaction(() => {
      const before = this.job(jobId)!;
      const job = this.moveInTransaction(
        jobId,
        'failed',
        {
          remote_status: remoteStatus,
          polls: before.polls + 1,
          next_poll_at: null,
          finished_at: this.now(),
          failure_code: failure.code,
          failure_message: failure.message,
          credits_refunded: before.creditsCharged,
        },
        failure,
      );
      if (before.remoteStatus !== remoteStatus) this.event(jobId, 'remote_status', remoteStatus);
      if (before.creditsCharged > 0) this.addLedger(job, 'refund', before.creditsCharged, null);
      this.skipDependants(jobId, `Its shoot did not succeed: ${failure.message}`);
      return job;
    })();
  }

  /** Ends a job as failed without a charge (a 400) or without a refund (results lost). */
  fail(jobId: string, failure: Failure): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(
        jobId,
        'failed',
        {
          finished_at: this.now(),
          next_poll_at: null,
          failure_code: failure.code,
          failure_message: failure.message,
        },
        failure,
      );
      this.skipDependants(jobId, `Its shoot did not succeed: ${failure.message}`);
      return job;
    })();
  }

  /** The POST may have created the job: it waits for the user's decision, and so do its videos. */
  markOutcomeUnknown(jobId: string, failure: Failure): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(
        jobId,
        'outcome_unknown',
        { failure_code: failure.code, failure_message: failure.message },
        failure,
      );
      this.skipDependants(
        jobId,
        'Its shoot may or may not have been created: it waits for your decision on the shoot.',
      );
      return job;
    })();
  }

  markStale(jobId: string): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(jobId, 'stale', {
        next_poll_at: null,
        failure_code: 'stale',
        failure_message:
          'Still unfinished past its deadline; no longer polled. Check again to resume polling.',
      });
      this.skipDependants(jobId, 'Its shoot is unfinished past its deadline.');
      return job;
    })();
  }

  assets(jobId: string): Asset[] {
    return (
      this.db.prepare('SELECT * FROM assets WHERE job_id = ? ORDER BY kind, idx').all(jobId) as Row[]
    ).map(toAsset);
  }

  batchAssets(batchId: string): Asset[] {
    return (
      this.db
        .prepare(
          'SELECT assets.* FROM assets JOIN jobs ON jobs.id = assets.job_id WHERE jobs.batch_id = ? ORDER BY assets.id',
        )
        .all(batchId) as Row[]
    ).map(toAsset);
  }

  /** Results still to download, of these batches' jobs in `downloading`. */
  pendingAssets(batchIds: readonly string[]): Array<Asset & { libraryDir: string; batchId: string }> {
    return (
      this.db
        .prepare(
          `SELECT assets.*, batches.library_dir, batches.id AS batch_id FROM assets
           JOIN jobs ON jobs.id = assets.job_id JOIN batches ON batches.id = jobs.batch_id
           WHERE assets.state = 'pending' AND jobs.state = 'downloading'
             AND jobs.batch_id IN (SELECT value FROM json_each(?))
           ORDER BY assets.id`,
        )
        .all(JSON.stringify(batchIds)) as Row[]
    ).map((row) => ({
      ...toAsset(row),
      libraryDir: row.library_dir as string,
      batchId: row.batch_id as string,
    }));
  }

  assetDownloaded(assetId: number, bytes: number, sha256: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          "UPDATE assets SET state = 'done', bytes = ?, sha256 = ?, attempts = attempts + 1, error = NULL WHERE id = ?",
        )
        .run(bytes, sha256, assetId);
      this.settleDownloads(this.assetJob(assetId));
    })();
  }

  assetFailed(assetId: number, error: string, permanent: boolean): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE assets SET state = ?, attempts = attempts + 1, error = ? WHERE id = ?')
        .run(permanent ? 'failed' : 'pending', error, assetId);
      if (permanent) this.settleDownloads(this.assetJob(assetId));
    })();
  }

  /**
   * The totals of every batch, and its product count, in four queries: the Batches screen of a library of
   * 100,000 jobs asks for all of them at once.
   */
  allTotals(): Map<string, BatchTotals & { products: number }> {
    return this.collectTotals(null);
  }

  totals(batchId: string): BatchTotals {
    const { products: _products, ...totals } = this.collectTotals(batchId).get(batchId) ?? {
      ...EMPTY_TOTALS,
      byState: {},
    };
    return totals;
  }

  /** Jobs by state (with the credits at stake and the jobs created), the ledger and the products, per batch. */
  private collectTotals(batchId: string | null): Map<string, BatchTotals & { products: number }> {
    const all = new Map<string, BatchTotals & { products: number }>();
    const of = (id: string) => {
      let totals = all.get(id);
      if (!totals) {
        totals = { ...EMPTY_TOTALS, byState: {} };
        all.set(id, totals);
      }
      return totals;
    };
    // Two texts, not `@batchId IS NULL OR …`: SQLite would scan every batch's rows to answer for one.
    const where = batchId === null ? '' : 'WHERE batch_id = @batchId';
    for (const row of this.db
      .prepare(
        `SELECT batch_id, state, COUNT(*) AS n, SUM(CASE WHEN state = 'outcome_unknown' THEN price ELSE 0 END) AS stake,
           SUM(accepted_at IS NOT NULL) AS created
         FROM jobs ${where} GROUP BY batch_id, state`,
      )
      .all(batchId === null ? {} : { batchId }) as Array<{
      batch_id: string;
      state: JobState;
      n: number;
      stake: number;
      created: number;
    }>) {
      const totals = of(row.batch_id);
      totals.byState[row.state] = row.n;
      totals.jobs += row.n;
      totals.atStake += row.stake;
      totals.created += row.created;
    }
    for (const row of this.db
      .prepare(`SELECT batch_id, type, SUM(credits) AS credits FROM ledger ${where} GROUP BY batch_id, type`)
      .all(batchId === null ? {} : { batchId }) as Array<{
      batch_id: string;
      type: 'charge' | 'refund';
      credits: number;
    }>) {
      if (row.type === 'charge') of(row.batch_id).charged = row.credits;
      else of(row.batch_id).refunded = row.credits;
    }
    for (const row of this.db
      .prepare(`SELECT batch_id, COUNT(*) AS n FROM products ${where} GROUP BY batch_id`)
      .all(batchId === null ? {} : { batchId }) as Array<{ batch_id: string; n: number }>) {
      of(row.batch_id).products = row.n;
    }
    return all;
  }

  ledger(batchId: string): Array<{ jobId: string; at: number; type: 'charge' | 'refund'; credits: number }> {
    return this.db
      .prepare('SELECT job_id AS jobId, at, type, credits FROM ledger WHERE batch_id = ? ORDER BY id')
      .all(batchId) as Array<{ jobId: string; at: number; type: 'charge' | 'refund'; credits: number }>;
  }

  events(jobId: string): Array<{ at: number; type: string; value: string; detail: unknown }> {
    return (
      this.db
        .prepare('SELECT at, type, value, detail FROM job_events WHERE job_id = ? ORDER BY id')
        .all(jobId) as Array<{
        at: number;
        type: string;
        value: string;
        detail: string | null;
      }>
    ).map((row) => ({ ...row, detail: row.detail ? JSON.parse(row.detail) : null }));
  }

  private assetJob(assetId: number): string {
    return (this.db.prepare('SELECT job_id FROM assets WHERE id = ?').get(assetId) as { job_id: string })
      .job_id;
  }

  /** A downloading job is done when every result is on disk, failed when one can never be fetched. */
  private settleDownloads(jobId: string): void {
    const counts = this.db
      .prepare(
        `SELECT SUM(state = 'pending') AS pending, SUM(state = 'failed') AS failed FROM assets WHERE job_id = ?`,
      )
      .get(jobId) as { pending: number; failed: number };
    if (counts.pending > 0) return;
    if (counts.failed > 0) {
      const failure = {
        code: 'download_failed',
        message: 'Some results could not be downloaded; the service charged for them.',
      };
      this.moveInTransaction(jobId, 'failed', {
        finished_at: this.now(),
        failure_code: failure.code,
        failure_message: failure.message,
      });
      this.skipDependants(jobId, `Its shoot did not succeed: ${failure.message}`);
    } else {
      this.moveInTransaction(jobId, 'done', { finished_at: this.now() });
    }
  }

  private restoreDependants(jobId: string): void {
    const dependants = this.db
      .prepare("SELECT id FROM jobs WHERE after_job_id = ? AND state = 'skipped'")
      .all(jobId) as Array<{ id: string }>;
    for (const { id } of dependants) {
      this.moveInTransaction(
        id,
        'waiting',
        { failure_code: null, failure_message: null },
        { decision: 'retry' },
      );
    }
  }

  private reopenBatch(batchId: string): void {
    const batch = this.batch(batchId)!;
    if (batch.status === 'finished') this.setBatchStatus(batchId, 'running', null);
  }

  private skipDependants(jobId: string, reason: string): void {
    const dependants = this.db
      .prepare("SELECT id FROM jobs WHERE after_job_id = ? AND state = 'waiting'")
      .all(jobId) as Array<{ id: string }>;
    for (const { id } of dependants) {
      this.moveInTransaction(id, 'skipped', { failure_code: 'shoot_failed', failure_message: reason });
    }
  }

  private addLedger(job: Job, type: 'charge' | 'refund', credits: number, balanceAfter: number | null): void {
    this.db
      .prepare(
        'INSERT INTO ledger (batch_id, job_id, at, type, credits, balance_after) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(job.batchId, job.id, this.now(), type, credits, balanceAfter);
  }

  private event(jobId: string, type: string, value: string, detail?: unknown): void {
    this.db
      .prepare('INSERT INTO job_events (job_id, at, type, value, detail) VALUES (?, ?, ?, ?, ?)')
      .run(jobId, this.now(), type, value, detail === undefined ? null : JSON.stringify(detail));
  }

  private moveInTransaction(jobId: string, to: JobState, patch: JobPatch = {}, detail?: unknown): Job {
    const job = this.job(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    if (!canMove(job.state, to)) throw new Error(`job ${jobId} cannot move from ${job.state} to ${to}`);
    const columns = Object.keys(patch);
    for (const column of columns)
      if (!JOB_COLUMNS.has(column)) throw new Error(`unknown job column ${column}`);
    const assignments = ['state = @state', ...columns.map((column) => `${column} = @${column}`)].join(', ');
    this.db.prepare(`UPDATE jobs SET ${assignments} WHERE id = @id`).run({ ...patch, state: to, id: jobId });
    if (job.state !== to) this.event(jobId, 'state', to, detail);
    return this.job(jobId)!;
  }
}
