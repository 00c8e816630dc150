import { counted } from '../../shared/counted.ts';
import { type JobState, type OddAnswer, oddAnswerCode } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import { readStored, storedJson } from '../db/stored.ts';
import type { LedgerStore } from '../ledger/ledger-store.ts';
import type { BatchStore } from './batch-store.ts';
import { type AssetId, type BatchId, type JobId, newJobId, type ProductId } from './ids.ts';
import { type JobRow, toJob } from './rows.ts';
import { canMove } from './states.ts';
import type { Asset, Failure, Job, ShootSettings, VideoSettings } from './types.ts';

// Jobs, their history and the credits they moved. Every state change goes through one private move, which
// checks the transition table and records the event in the same transaction, so the history is never out
// of step; a charge or refund is written in the transaction of the answer that caused it.

/** The failure code of an unknown outcome the service's usage report was asked about and could not settle. */
export const UNSETTLED = 'unsettled_by_usage';

/** The job columns a move may set besides its state. */
type JobPatch = Partial<
  Pick<
    JobRow,
    | 'request'
    | 'remote_id'
    | 'remote_status'
    | 'credits_charged'
    | 'credits_refunded'
    | 'posts'
    | 'polls'
    | 'submitted_at'
    | 'accepted_at'
    | 'finished_at'
    | 'next_poll_at'
    | 'deadline_at'
    | 'failure_code'
    | 'failure_message'
  >
>;

// Checked at run time too: the column names are written into the SQL text.
const PATCHABLE = new Set<string>([
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
] satisfies Array<keyof JobPatch>);

export interface RemoteAcceptance {
  remoteId: string;
  remoteStatus: string;
  credits: number;
  balanceAfter: number | null;
  deadlineAt: number;
  nextPollAt: number;
}

export interface JobEvent {
  at: number;
  type: string;
  value: string;
  detail: unknown;
}

/** A job to add, waiting: a video names the shoot it is made after. */
export interface NewJob {
  batchId: BatchId;
  productId: ProductId;
  kind: Job['kind'];
  afterJobId: JobId | null;
  settings: ShootSettings | VideoSettings;
  price: number;
}

/** A job another decision committed (`JobStore.committedSince`). */
export interface CommittedJob {
  batchId: BatchId;
  batchName: string;
  keyId: string;
  productId: ProductId;
  productName: string;
  fingerprint: string;
  kind: 'shoot' | 'video';
  price: number;
}

/** Where a spending decision began (`JobStore.mark`): the jobs' high-water mark, and the time it was taken. */
export interface SpendMark {
  seq: number;
  at: number;
}

/**
 * A job (`j`, of batch `b`) the service has not charged and will: waiting in a running batch (a paused
 * batch's jobs go only at a person's word), or being sent.
 */
const NOT_YET_CHARGED = `(j.state = 'submitting' OR (j.state = 'waiting' AND b.status = 'running'))`;

/** The next `committed_seq`: one past every job's (an insert, or a retry that sends a job again). */
const NEXT_COMMIT = '(SELECT COALESCE(MAX(committed_seq), 0) + 1 FROM jobs)';

export class JobStore {
  constructor(
    private readonly db: Db,
    private readonly batches: BatchStore,
    private readonly ledger: LedgerStore,
    private readonly now: () => number,
  ) {}

  /** A new job, waiting; a video waits for its shoot (`afterJobId`). */
  insert(input: NewJob): JobId {
    const id = newJobId();
    this.db
      .prepare(
        `INSERT INTO jobs (id, batch_id, product_id, kind, after_job_id, settings, price, state, created_at,
           committed_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ${NEXT_COMMIT})`,
      )
      .run(
        id,
        input.batchId,
        input.productId,
        input.kind,
        input.afterJobId,
        JSON.stringify(input.settings),
        input.price,
        this.now(),
      );
    return id;
  }

  /**
   * The jobs' high-water mark (`committed_seq`, which each insert and each retry raises, and a clock cannot
   * tie), and when it was taken: taken by a spending decision before its first await, so its transaction can
   * tell what others committed meanwhile, and what was committed before but not yet sent.
   */
  mark(): SpendMark {
    const seq = this.db
      .prepare<[], number>('SELECT COALESCE(MAX(committed_seq), 0) FROM jobs')
      .pluck()
      .get()!;
    return { seq, at: this.now() };
  }

  /**
   * Credits that the key's jobs committed up to `mark` will take and a balance asked after it does not count:
   * jobs not yet sent (waiting in a running batch, or being sent), and jobs sent since the mark was taken
   * (the service may have answered the balance before or after it charged them: counted, erring on refusing).
   *
   * GUESS: the waiting jobs of a paused batch are not counted. They are sent only at a person's word, and
   * counting them would refuse a new batch for one that may never be resumed; resumed, a job the balance no
   * longer covers is refused by the service, which pauses the batch and charges nothing.
   */
  promisedBefore(mark: SpendMark, keyId: string): number {
    return this.db
      .prepare<[string, number, number], number>(
        `SELECT COALESCE(SUM(j.price), 0) FROM jobs j JOIN batches b ON b.id = j.batch_id
         WHERE b.key_id = ? AND j.committed_seq <= ?
           AND (${NOT_YET_CHARGED}
             OR (j.submitted_at >= ? AND j.state NOT IN ('waiting', 'failed', 'cancelled', 'skipped')))`,
      )
      .pluck()
      .get(keyId, mark.seq, mark.at)!;
  }

  /**
   * Credits the key's jobs were charged after `at` (their creates answered since): what a balance the
   * service said at `at` does not count yet.
   *
   * GUESS: refunds since are not added back. A refund raises the balance; leaving it out errs on showing
   * less, for the cache's half minute at most, never more.
   */
  chargedSince(keyId: string, at: number): number {
    return this.db
      .prepare<[string, number], number>(
        `SELECT COALESCE(SUM(j.credits_charged), 0) FROM jobs j JOIN batches b ON b.id = j.batch_id
         WHERE b.key_id = ? AND j.accepted_at > ?`,
      )
      .pluck()
      .get(keyId, at)!;
  }

  /**
   * Credits the key's jobs will still be charged, as of now: waiting in a running batch, or being sent. A
   * quote sets its cost against the balance less these (`QuoteView.promised`).
   */
  notYetCharged(keyId: string): number {
    return this.db
      .prepare<[string], number>(
        `SELECT COALESCE(SUM(j.price), 0) FROM jobs j JOIN batches b ON b.id = j.batch_id
         WHERE b.key_id = ? AND ${NOT_YET_CHARGED}`,
      )
      .pluck()
      .get(keyId)!;
  }

  /**
   * Jobs inserted or retried after `mark` that may still cost credits (not failed, cancelled or skipped):
   * what other decisions committed while one awaited the service, with what each names of its batch and
   * product.
   */
  committedSince(mark: SpendMark): CommittedJob[] {
    return this.db
      .prepare<[number], CommittedJob>(
        `SELECT j.batch_id AS batchId, b.name AS batchName, b.key_id AS keyId, j.product_id AS productId,
           p.name AS productName, p.fingerprint, j.kind, j.price
         FROM jobs j JOIN batches b ON b.id = j.batch_id JOIN products p ON p.id = j.product_id
         WHERE j.committed_seq > ? AND j.state NOT IN ('failed', 'cancelled', 'skipped')`,
      )
      .all(mark.seq);
  }

  get(id: string): Job | null {
    const row = this.db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id);
    return row ? toJob(row) : null;
  }

  /**
   * How many jobs of its kind its product had before it: 0 for a product's first shoot (or video), 1 for the
   * first shoot added later (a reshoot). Insertion order (rowid), which a clock cannot tie.
   */
  earlierOfKind(job: Pick<Job, 'id' | 'productId' | 'kind'>): number {
    return (
      this.db
        .prepare<[string, string, string], { n: number }>(
          `SELECT COUNT(*) AS n FROM jobs WHERE product_id = ? AND kind = ?
             AND rowid < (SELECT rowid FROM jobs WHERE id = ?)`,
        )
        .get(job.productId, job.kind, job.id)?.n ?? 0
    );
  }

  /** The product's shoots that have not ended yet: being sent, followed or downloaded, or waiting for a word. */
  unendedShoots(productIds: readonly string[]): Set<ProductId> {
    const rows = this.db
      .prepare<[string], { product_id: ProductId }>(
        `SELECT DISTINCT product_id FROM jobs WHERE kind = 'shoot'
           AND product_id IN (SELECT value FROM json_each(?))
           AND state NOT IN ('done', 'failed', 'lost', 'cancelled', 'skipped')`,
      )
      .all(JSON.stringify(productIds));
    return new Set(rows.map((row) => row.product_id));
  }

  /**
   * The jobs of a batch that a later job of the same product and kind has made good: the service completed
   * it (downloading, owed or done). A retry of those would buy again what the product already has.
   */
  supersededIn(batchId: string): Set<JobId> {
    const rows = this.db
      .prepare<[string], { id: JobId }>(
        `SELECT jobs.id FROM jobs WHERE jobs.batch_id = ? AND EXISTS (
           SELECT 1 FROM jobs AS later WHERE later.product_id = jobs.product_id AND later.kind = jobs.kind
             AND later.rowid > jobs.rowid AND later.state IN ('downloading', 'owed', 'done'))`,
      )
      .all(batchId);
    return new Set(rows.map((row) => row.id));
  }

  /** Jobs of a batch in this state. */
  ofBatchInState(batchId: string, state: JobState): Job[] {
    return this.db
      .prepare<[string, JobState], JobRow>('SELECT * FROM jobs WHERE batch_id = ? AND state = ?')
      .all(batchId, state)
      .map(toJob);
  }

  /** A batch's jobs in product order, shoots before videos, each kind in the order it was added. */
  ofBatch(batchId: string): Job[] {
    return this.db
      .prepare<[string], JobRow>(
        `SELECT jobs.* FROM jobs JOIN products ON products.id = jobs.product_id
         WHERE jobs.batch_id = ? ORDER BY products.position, jobs.kind, jobs.rowid`,
      )
      .all(batchId)
      .map(toJob);
  }

  inState(state: JobState): Job[] {
    return this.db.prepare<[JobState], JobRow>('SELECT * FROM jobs WHERE state = ?').all(state).map(toJob);
  }

  /**
   * Jobs of these batches, made with this key, ready to be sent: their batch runs and, for a video, its
   * shoot has completed. Oldest batch first, videos before shoots (they finish a product sooner).
   */
  readyToSubmit(batchIds: readonly string[], keyId: string, limit: number, kind?: Job['kind']): Job[] {
    return this.db
      .prepare<[string, string, string | null, string | null, number], JobRow>(
        `SELECT jobs.* FROM jobs
         JOIN batches ON batches.id = jobs.batch_id
         JOIN products ON products.id = jobs.product_id
         LEFT JOIN jobs AS before ON before.id = jobs.after_job_id
         WHERE jobs.state = 'waiting' AND batches.status = 'running' AND batches.key_id = ?
           AND jobs.batch_id IN (SELECT value FROM json_each(?))
           AND (jobs.after_job_id IS NULL OR before.state IN ('downloading', 'owed', 'done'))
           AND (? IS NULL OR jobs.kind = ?)
         ORDER BY batches.created_at, jobs.kind DESC, products.position
         LIMIT ?`,
      )
      .all(keyId, JSON.stringify(batchIds), kind ?? null, kind ?? null, limit)
      .map(toJob);
  }

  /** Running jobs of these batches, made with this key, soonest poll first. */
  runningByNextPoll(
    batchIds: readonly string[],
    keyId: string | null,
    limit: number,
    kind?: Job['kind'],
  ): Job[] {
    return this.db
      .prepare<[string, string | null, string | null, string | null, string | null, number], JobRow>(
        `SELECT jobs.* FROM jobs JOIN batches ON batches.id = jobs.batch_id
         WHERE jobs.state = 'running' AND jobs.batch_id IN (SELECT value FROM json_each(?))
           AND (? IS NULL OR batches.key_id = ?) AND (? IS NULL OR jobs.kind = ?)
         ORDER BY jobs.next_poll_at LIMIT ?`,
      )
      .all(JSON.stringify(batchIds), keyId, keyId, kind ?? null, kind ?? null, limit)
      .map(toJob);
  }

  /** Moves a job along the transition table, recording the event; the patch is applied in the same write. */
  move(jobId: JobId, to: JobState, patch: JobPatch = {}, detail?: unknown): Job {
    return this.db.transaction(() => this.moveInTransaction(jobId, to, patch, detail))();
  }

  /** Commits the intent before the POST: after this, a crash leaves the job `submitting`, never re-sent. */
  beginSubmit(jobId: JobId, request: unknown, detail?: unknown): Job {
    const job = this.require(jobId);
    return this.move(
      jobId,
      'submitting',
      {
        request: JSON.stringify(request),
        submitted_at: this.now(),
        posts: job.posts + 1,
      },
      detail,
    );
  }

  /** Records a 201: the remote id, the charge and the running state in one transaction. */
  acceptSubmit(jobId: JobId, accepted: RemoteAcceptance): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(jobId, 'running', {
        remote_id: accepted.remoteId,
        remote_status: accepted.remoteStatus,
        accepted_at: this.now(),
        credits_charged: accepted.credits,
        deadline_at: accepted.deadlineAt,
        next_poll_at: accepted.nextPollAt,
      });
      this.ledger.record(job.id, 'charge', accepted.credits, { balanceAfter: accepted.balanceAfter });
      this.event(jobId, 'remote_status', accepted.remoteStatus);
      return job;
    })();
  }

  /** The service answered and created nothing (429, 402, 401): the job waits to be sent again. */
  returnToWaiting(jobId: JobId, failure: Failure): Job {
    return this.move(jobId, 'waiting', {}, failure);
  }

  /** A poll found the job still running at the service: noted with when (the ETA's lower bound on it). */
  recordPoll(jobId: JobId, remoteStatus: string, nextPollAt: number): void {
    this.db.transaction(() => {
      const job = this.require(jobId);
      this.db
        .prepare(
          `UPDATE jobs SET remote_status = ?, polls = polls + 1, next_poll_at = ?, last_polled_running_at = ?
           WHERE id = ?`,
        )
        .run(remoteStatus, nextPollAt, this.now(), jobId);
      if (job.remoteStatus !== remoteStatus) this.event(jobId, 'remote_status', remoteStatus);
    })();
  }

  reschedulePoll(jobId: JobId, nextPollAt: number): void {
    this.db
      .prepare("UPDATE jobs SET next_poll_at = ? WHERE id = ? AND state = 'running'")
      .run(nextPollAt, jobId);
  }

  /** Defers a poll (a 429, a transient error) without counting it as an observation. */
  deferPoll(jobId: JobId, nextPollAt: number, error?: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE jobs SET polls = polls + 1, next_poll_at = ? WHERE id = ?')
        .run(nextPollAt, jobId);
      if (error) this.event(jobId, 'error', error);
    })();
  }

  /** The service's status for the job, as an answer that is not acted on yet gave it (a completion without results). */
  noteRemoteStatus(jobId: JobId, remoteStatus: string): void {
    this.db.transaction(() => {
      const job = this.require(jobId);
      if (job.remoteStatus === remoteStatus) return;
      this.db.prepare('UPDATE jobs SET remote_status = ? WHERE id = ?').run(remoteStatus, jobId);
      this.event(jobId, 'remote_status', remoteStatus);
    })();
  }

  /** The service completed the job: record its results to download, and move to `downloading`. */
  completeRemote(
    jobId: JobId,
    remoteStatus: string,
    assets: ReadonlyArray<Pick<Asset, 'kind' | 'idx' | 'url' | 'path'>>,
  ): Job {
    return this.db.transaction(() => {
      const before = this.require(jobId);
      const seen = { remote_status: remoteStatus, polls: before.polls + 1, next_poll_at: null };
      // The runner polls a completion without results again, then asks the user (`markStale`).
      if (assets.length === 0) throw new Error(`job ${jobId}: a completion without results is not recorded`);
      this.moveInTransaction(jobId, 'downloading', seen);
      this.event(jobId, 'remote_status', remoteStatus);
      const insert = this.db.prepare(
        `INSERT INTO assets (job_id, kind, idx, url, path, state) VALUES (?, ?, ?, ?, ?, 'pending')
         ON CONFLICT (job_id, kind, idx) DO UPDATE SET url = excluded.url`,
      );
      for (const asset of assets) insert.run(jobId, asset.kind, asset.idx, asset.url, asset.path);
      return this.require(jobId);
    })();
  }

  /** The service failed the job: it refunds, so the ledger shows a refund, and dependants are skipped. */
  failRemote(jobId: JobId, remoteStatus: string, failure: Failure): Job {
    return this.db.transaction(() => {
      const before = this.require(jobId);
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
      if (before.creditsCharged > 0) this.ledger.record(job.id, 'refund', before.creditsCharged);
      this.skipDependants(jobId, `Its shoot did not succeed: ${failure.message}`);
      return job;
    })();
  }

  /** Ends a job as failed without a charge (a 400, or never sent) or without a refund (results lost). */
  fail(jobId: JobId, failure: Failure): Job {
    return this.db.transaction(() => this.failInTransaction(jobId, failure))();
  }

  /**
   * The POST may have created the job: its price is at stake in the ledger, and it waits for the user's
   * decision, and so do its videos.
   */
  markOutcomeUnknown(jobId: JobId, failure: Failure): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(
        jobId,
        'outcome_unknown',
        { failure_code: failure.code, failure_message: failure.message },
        failure,
      );
      this.ledger.record(job.id, 'at_stake', job.price, { note: failure.message });
      this.skipDependants(
        jobId,
        'Its shoot may or may not have been created: it waits for your decision on the shoot.',
      );
      return job;
    })();
  }

  /**
   * The service's usage report settled an unknown outcome (ledger/reconcile.ts): the stake is resolved in the
   * ledger and, when the job still waits on that very attempt, it moves with it, in one transaction: `failed`
   * when the service did not charge it (nothing was made), `lost` when it did (made and paid, but the answer
   * with the id its results are fetched by never came). Returns false when the resolution was already written.
   */
  resolveStake(
    stake: { jobId: JobId; attempt: number; credits: number },
    charged: boolean,
    note: string,
  ): boolean {
    return this.db.transaction(() => {
      const written = this.ledger.record(
        stake.jobId,
        charged ? 'at_stake_charged' : 'at_stake_released',
        stake.credits,
        { attempt: stake.attempt, note },
      );
      const job = this.get(stake.jobId);
      // Moved even when the entry was there already: an older version resolved stakes without their jobs.
      if (job?.state !== 'outcome_unknown' || job.posts !== stake.attempt) return written;
      const failure = charged
        ? {
            code: 'charged_out_of_reach',
            message: `The service charged it after all (its usage report counts ${counted(stake.credits, 'credit')}), but its answer, with the id its results are fetched by, was lost: they cannot be downloaded. Only a retry makes them, and it pays again.`,
          }
        : {
            code: 'not_created',
            message:
              'The service did not create it: its usage report counts no charge for it. A retry sends it for the first time.',
          };
      this.moveInTransaction(
        stake.jobId,
        charged ? 'lost' : 'failed',
        {
          finished_at: this.now(),
          failure_code: failure.code,
          failure_message: failure.message,
          ...(charged ? { credits_charged: stake.credits } : {}),
        },
        failure,
      );
      this.restateSkipped(stake.jobId, `Its shoot did not succeed: ${failure.message}`);
      return true;
    })();
  }

  /**
   * An unknown outcome the usage report could not settle (`why`): it stays unknown, said so; once asked, a
   * person may choose to retry it (decisions.ts), knowing it may pay twice.
   */
  noteUnsettled(jobId: JobId, why: string): Job {
    return this.db.transaction(() => {
      const failure = { code: UNSETTLED, message: why };
      this.db
        .prepare(
          "UPDATE jobs SET failure_code = ?, failure_message = ? WHERE id = ? AND state = 'outcome_unknown'",
        )
        .run(failure.code, failure.message, jobId);
      this.event(jobId, 'checked', 'usage', failure);
      return this.require(jobId);
    })();
  }

  /**
   * No longer polled, until the user asks: still unfinished past its deadline, or (`odd`) a job the service
   * accepted and charged whose polls now answer, several in a row, that it does not know it (404) or that it
   * completed without a result to download. Either way its charge is in doubt, and the batch needs the user.
   */
  markStale(jobId: JobId, odd?: { answer: OddAnswer; polls: number }): Job {
    return this.db.transaction(() => {
      const job = this.require(jobId);
      const failure = odd
        ? this.oddAnswerFailure(job, odd.answer, odd.polls)
        : {
            code: 'stale',
            message: 'Still unfinished past its deadline; no longer polled. Check again to resume polling.',
          };
      const moved = this.moveInTransaction(
        jobId,
        'stale',
        { next_poll_at: null, failure_code: failure.code, failure_message: failure.message },
        { code: failure.code, attempt: job.posts },
      );
      this.skipDependants(
        jobId,
        odd
          ? 'Its shoot is in doubt: the service gave no results for it.'
          : 'Its shoot is unfinished past its deadline.',
      );
      return moved;
    })();
  }

  /**
   * Why a job the service accepted and charged, then answered oddly about, waits for the user. The first
   * time, checking again (free) is all that is offered; once the user has checked and the service still
   * answers so of the same attempt, a retry (paying again) is offered beside it (decisions.ts).
   */
  private oddAnswerFailure(job: Job, answer: OddAnswer, polls: number): Failure {
    const checkedBefore =
      this.db
        .prepare<[JobId, string, number], { n: number }>(
          `SELECT COUNT(*) AS n FROM job_events WHERE job_id = ? AND type = 'state' AND value = 'stale'
             AND json_extract(detail, '$.code') = ? AND json_extract(detail, '$.attempt') = ?`,
        )
        .get(job.id, oddAnswerCode(answer, false), job.posts)!.n > 0;
    const said =
      answer === 'not_found'
        ? 'answers that it does not know it (HTTP 404'
        : 'answers that it completed it without a result to download (no image or video in its answer';
    const what = `The service accepted this ${job.kind} and charged ${counted(job.creditsCharged, 'credit')}, but ${said}, ${counted(polls, 'poll')} in a row)`;
    return {
      code: oddAnswerCode(answer, checkedBefore),
      message: checkedBefore
        ? `${what}, checked again: no longer polled. Check again asks once more, free; a retry makes it again and pays again.`
        : `${what}: no longer polled. Check again asks once more, free.`,
    };
  }

  /**
   * Every result of a downloading job has been tried: it is done when all are on disk, owed when one could
   * not be downloaded (the service was paid: downloading again is free). Runs inside the asset store's
   * transaction; `failure` says why the results could not be had.
   */
  finishDownloads(jobId: JobId, failure: Failure | null): void {
    if (failure) {
      this.moveInTransaction(
        jobId,
        'owed',
        { failure_code: failure.code, failure_message: failure.message },
        failure,
      );
    } else {
      this.moveInTransaction(jobId, 'done', {
        finished_at: this.now(),
        failure_code: null,
        failure_message: null,
      });
    }
  }

  /**
   * Results of a job that are no longer in the library (deleted, lost with a drive): owed again, to be
   * downloaded for free. A done job is owed again; one still downloading takes them back among those it
   * has to download; an owed job owes them beside the rest.
   */
  markResultsLost(jobId: JobId, assetIds: readonly AssetId[]): Job {
    return this.db.transaction(() => {
      const job = this.require(jobId);
      const downloading = job.state === 'downloading';
      const lost = this.db.prepare(
        'UPDATE assets SET state = ?, attempts = 0, error = ? WHERE id = ? AND job_id = ?',
      );
      for (const assetId of assetIds) {
        lost.run(
          downloading ? 'pending' : 'failed',
          downloading ? null : 'missing from the library',
          assetId,
          jobId,
        );
      }
      if (job.state !== 'done') return job;
      const failure = {
        code: 'results_missing',
        message:
          'Its results are no longer in the library. Download again to fetch them without paying again.',
      };
      return this.moveInTransaction(
        jobId,
        'owed',
        { failure_code: failure.code, failure_message: failure.message },
        failure,
      );
    })();
  }

  /** Why an owed job's results cannot be downloaded again (the service no longer serves them). */
  explainOwed(jobId: JobId, failure: Failure): void {
    this.db
      .prepare("UPDATE jobs SET failure_code = ?, failure_message = ? WHERE id = ? AND state = 'owed'")
      .run(failure.code, failure.message, jobId);
  }

  /** The user's word to download an owed job's results again: no POST, no credits. */
  redownload(jobId: JobId): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(jobId, 'downloading', {}, { decision: 'redownload' });
      this.db
        .prepare("UPDATE assets SET state = 'pending', attempts = 0 WHERE job_id = ? AND state = 'failed'")
        .run(jobId);
      this.batches.reopen(job.batchId);
      return job;
    })();
  }

  /** Cancels what was not created yet; created jobs are still followed to their end and downloaded. */
  cancelBatch(batchId: BatchId): number {
    return this.db.transaction(() => {
      const waiting = this.db
        .prepare<[BatchId], { id: JobId }>("SELECT id FROM jobs WHERE batch_id = ? AND state = 'waiting'")
        .all(batchId);
      for (const job of waiting)
        this.moveInTransaction(job.id, 'cancelled', {}, { reason: 'batch cancelled' });
      this.batches.setStatus(batchId, 'cancelled', null);
      return waiting.length;
    })();
  }

  /**
   * The user's word to send a failed or outcome-unknown job again: it costs credits again (the service
   * refunded a failed job; an unknown one may have been charged already). Its skipped videos wait again.
   */
  retry(jobId: JobId): Job {
    return this.db.transaction(() => {
      const before = this.require(jobId);
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
      this.db.prepare(`UPDATE jobs SET committed_seq = ${NEXT_COMMIT} WHERE id = ?`).run(jobId);
      this.restoreDependants(jobId);
      this.batches.reopen(job.batchId);
      return job;
    })();
  }

  /** What retrying the job commits: its price, and that of the jobs its failure skipped (they go again with it). */
  retryPrice(jobId: JobId): number {
    const job = this.require(jobId);
    return this.dependants(jobId, 'skipped').reduce((sum, { id }) => sum + this.require(id).price, job.price);
  }

  /** The user's word that an outcome-unknown job is not to be sent again. */
  abandon(jobId: JobId): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(jobId, 'cancelled', {}, { decision: 'abandon' });
      this.restateSkipped(jobId, 'Its shoot was abandoned on your word: it is not sent again.');
      return job;
    })();
  }

  /** The user's word to follow a stale job again, with a new deadline. */
  recheck(jobId: JobId, deadlineAt: number): Job {
    return this.db.transaction(() => {
      const job = this.moveInTransaction(
        jobId,
        'running',
        { next_poll_at: this.now(), deadline_at: deadlineAt, failure_code: null, failure_message: null },
        { decision: 'recheck' },
      );
      this.db.prepare(`UPDATE jobs SET committed_seq = ${NEXT_COMMIT} WHERE id = ?`).run(jobId);
      this.restoreDependants(jobId);
      this.batches.reopen(job.batchId);
      return job;
    })();
  }

  events(jobId: string): JobEvent[] {
    return this.db
      .prepare<[string], { at: number; type: string; value: string; detail: string | null }>(
        'SELECT at, type, value, detail FROM job_events WHERE job_id = ? ORDER BY id',
      )
      .all(jobId)
      .map((row) => ({
        ...row,
        detail: row.detail ? readStored(storedJson, row.detail, `An event of job ${jobId}`) : null,
      }));
  }

  private require(jobId: JobId): Job {
    const job = this.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    return job;
  }

  private failInTransaction(jobId: JobId, failure: Failure): Job {
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
  }

  private restoreDependants(jobId: JobId): void {
    for (const { id } of this.dependants(jobId, 'skipped')) {
      this.moveInTransaction(
        id,
        'waiting',
        { failure_code: null, failure_message: null },
        { decision: 'retry' },
      );
      this.db.prepare(`UPDATE jobs SET committed_seq = ${NEXT_COMMIT} WHERE id = ?`).run(id);
    }
  }

  private skipDependants(jobId: JobId, reason: string): void {
    for (const { id } of this.dependants(jobId, 'waiting')) {
      this.moveInTransaction(id, 'skipped', { failure_code: 'shoot_failed', failure_message: reason });
    }
  }

  /**
   * The jobs its shoot's doubt held back say why anew once the doubt is settled: "it waits for your decision
   * on the shoot" is no longer true when the usage report or the user has decided.
   */
  private restateSkipped(jobId: JobId, reason: string): void {
    this.db
      .prepare("UPDATE jobs SET failure_message = ? WHERE after_job_id = ? AND state = 'skipped'")
      .run(reason, jobId);
  }

  private dependants(jobId: JobId, state: JobState): Array<{ id: JobId }> {
    return this.db
      .prepare<[JobId, JobState], { id: JobId }>('SELECT id FROM jobs WHERE after_job_id = ? AND state = ?')
      .all(jobId, state);
  }

  private event(jobId: JobId, type: string, value: string, detail?: unknown): void {
    this.db
      .prepare('INSERT INTO job_events (job_id, at, type, value, detail) VALUES (?, ?, ?, ?, ?)')
      .run(jobId, this.now(), type, value, detail === undefined ? null : JSON.stringify(detail));
  }

  private moveInTransaction(jobId: JobId, to: JobState, patch: JobPatch = {}, detail?: unknown): Job {
    const job = this.require(jobId);
    if (!canMove(job.state, to)) throw new Error(`job ${jobId} cannot move from ${job.state} to ${to}`);
    const columns = Object.keys(patch);
    for (const column of columns) if (!PATCHABLE.has(column)) throw new Error(`unknown job column ${column}`);
    const assignments = ['state = @state', ...columns.map((column) => `${column} = @${column}`)].join(', ');
    this.db.prepare(`UPDATE jobs SET ${assignments} WHERE id = @id`).run({ ...patch, state: to, id: jobId });
    if (job.state !== to) this.event(jobId, 'state', to, detail);
    return this.require(jobId);
  }
}
