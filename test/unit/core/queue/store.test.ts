import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/core/db/open.ts';
import type { BatchId, JobId } from '../../../../src-main/core/queue/ids.ts';
import { QueueStore } from '../../../../src-main/core/queue/store.ts';
import {
  acceptance,
  complete,
  newBatch,
  products,
  SHOOT,
  SHOOT_PRICE,
  shootAndVideo,
  storePerTest,
  submitAndAccept,
  T0,
  VIDEO_PRICE,
} from './store-fixtures.ts';

const ctx = storePerTest();

/** The batch's ledger as the tests compare it: who, when, which way, how much. */
function ledgerOf(batchId: string) {
  return ctx.store.ledger
    .entries({ batchId })
    .map(({ jobId, at, type, credits }) => ({ jobId, at, type, credits }));
}

function stateEvents(jobId: string): string[] {
  return ctx.store.jobs
    .events(jobId)
    .filter((event) => event.type === 'state')
    .map((event) => event.value);
}

describe('createBatch', () => {
  it('records the products in order, a shoot per product and a video after each shoot', () => {
    const batch = ctx.store.createBatch(newBatch({ products: products(3) }));
    expect(batch.status).toBe('running');
    expect(batch.statusReason).toBeNull();
    expect(batch.createdAt).toBe(T0);
    expect(batch.sandbox).toBe(true);
    expect(batch.shoot).toEqual(SHOOT);

    const stored = ctx.store.batches.products(batch.id);
    expect(stored.map((product) => [product.position, product.name])).toEqual([
      [0, 'Product 1'],
      [1, 'Product 2'],
      [2, 'Product 3'],
    ]);
    expect(stored[1]!.photos).toEqual(products(3)[1]!.photos);

    const jobs = ctx.store.jobs.ofBatch(batch.id);
    expect(jobs).toHaveLength(6);
    for (const [position, product] of stored.entries()) {
      const [shoot, video] = [jobs[position * 2]!, jobs[position * 2 + 1]!];
      expect(shoot).toMatchObject({
        productId: product.id,
        kind: 'shoot',
        afterJobId: null,
        price: SHOOT_PRICE,
      });
      expect(video).toMatchObject({
        productId: product.id,
        kind: 'video',
        afterJobId: shoot.id,
        price: VIDEO_PRICE,
      });
      for (const job of [shoot, video])
        expect(job).toMatchObject({
          state: 'waiting',
          posts: 0,
          remoteId: null,
          creditsCharged: 0,
          createdAt: T0,
        });
    }
    expect(new Set(jobs.map((job) => job.id)).size).toBe(6);
    expect(batch.quotedCredits).toBe(3 * (SHOOT_PRICE + VIDEO_PRICE));
  });

  it('makes shoots only, priced from the clamped shot count, when no video is asked', () => {
    // lifestyle cannot make 6 shots: the service clamps to 4, at 4k 4 credits each.
    const batch = ctx.store.createBatch(
      newBatch({
        video: null,
        shoot: { ...SHOOT, style: 'lifestyle', shots: 6, quality: '4k' },
        products: products(2),
      }),
    );
    const jobs = ctx.store.jobs.ofBatch(batch.id);
    expect(jobs.map((job) => job.kind)).toEqual(['shoot', 'shoot']);
    expect(jobs.map((job) => job.price)).toEqual([16, 16]);
    expect(batch.quotedCredits).toBe(32);
    expect(batch.video).toBeNull();
  });
});

describe('move', () => {
  it('refuses a move that is not in the table and changes nothing', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    expect(() => ctx.store.jobs.move(shoot.id, 'running')).toThrow(/cannot move from waiting to running/);
    expect(() => ctx.store.jobs.move(shoot.id, 'done')).toThrow(/cannot move/);
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('waiting');
    expect(ctx.store.jobs.events(shoot.id)).toEqual([]);
  });

  it('records a state event with its detail, at the clock time, in the same write', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    ctx.clock.now = T0 + 42;
    const moved = ctx.store.jobs.move(shoot.id, 'cancelled', {}, { reason: 'batch cancelled' });
    expect(moved.state).toBe('cancelled');
    expect(ctx.store.jobs.events(shoot.id)).toEqual([
      { at: T0 + 42, type: 'state', value: 'cancelled', detail: { reason: 'batch cancelled' } },
    ]);
  });

  it('refuses a patch of an unknown column without moving the job', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    // @ts-expect-error a column the patch type refuses: the store refuses it at run time too
    expect(() => ctx.store.jobs.move(shoot.id, 'cancelled', { state: 'done' })).toThrow(/unknown job column/);
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('waiting');
    expect(ctx.store.jobs.events(shoot.id)).toEqual([]);
  });

  it('does not record an event for a move to the same state (a running job polled again)', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    const before = ctx.store.jobs.events(shoot.id).length;
    ctx.store.jobs.move(shoot.id, 'running', { next_poll_at: T0 + 9_999 });
    expect(ctx.store.jobs.events(shoot.id)).toHaveLength(before);
    expect(ctx.store.jobs.get(shoot.id)!.nextPollAt).toBe(T0 + 9_999);
  });
});

describe('beginSubmit', () => {
  it('commits the intent (request, submitted_at, posts + 1) durably before the POST', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    ctx.clock.now = T0 + 500;
    const request = { productImageUrls: ['http://127.0.0.1:1/p/x.png'], style: 'classic', shots: 4 };
    const job = ctx.store.jobs.beginSubmit(shoot.id, request);
    expect(job).toMatchObject({ state: 'submitting', request, submittedAt: T0 + 500, posts: 1 });

    // Another connection (what a restarted process would open) already sees the committed intent.
    const other = new Database(ctx.file, { readonly: true });
    try {
      const row = other
        .prepare('SELECT state, request, submitted_at, posts FROM jobs WHERE id = ?')
        .get(shoot.id);
      expect(row).toEqual({
        state: 'submitting',
        request: JSON.stringify(request),
        submitted_at: T0 + 500,
        posts: 1,
      });
    } finally {
      other.close();
    }
    // After a crash here, the job is never picked up to be sent again.
    const reopened = new QueueStore(openDatabase(ctx.file), () => ctx.clock.now);
    try {
      expect(reopened.jobs.get(shoot.id)!.state).toBe('submitting');
      expect(reopened.jobs.readyToSubmit([batch.id], 'key-a', 10).map((ready) => ready.id)).not.toContain(
        shoot.id,
      );
    } finally {
      reopened.db.close();
    }
  });

  it('refuses to begin a second POST for a job already submitting, and counts each real POST', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    ctx.store.jobs.beginSubmit(shoot.id, { n: 1 });
    expect(() => ctx.store.jobs.beginSubmit(shoot.id, { n: 2 })).toThrow(
      /cannot move from submitting to submitting/,
    );
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({ posts: 1, request: { n: 1 } });
    // A 429: nothing was created, the job waits and is sent again later.
    ctx.store.jobs.returnToWaiting(shoot.id, { code: 'rate_limited', message: 'slow down' });
    ctx.store.jobs.beginSubmit(shoot.id, { n: 3 });
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({ state: 'submitting', posts: 2, request: { n: 3 } });
    expect(stateEvents(shoot.id)).toEqual(['submitting', 'waiting', 'submitting']);
  });
});

describe('acceptSubmit', () => {
  it('records the remote id, the charge in the ledger and the running state together', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    const submitting = ctx.store.jobs.beginSubmit(shoot.id, {});
    ctx.clock.now = T0 + 800;
    const job = ctx.store.jobs.acceptSubmit(
      shoot.id,
      acceptance(ctx, submitting, { remoteId: 'shoot_abc', credits: 8, balanceAfter: 92 }),
    );
    expect(job).toMatchObject({
      state: 'running',
      remoteId: 'shoot_abc',
      remoteStatus: 'queued',
      creditsCharged: 8,
      acceptedAt: T0 + 800,
      deadlineAt: T0 + 800 + 600_000,
      nextPollAt: T0 + 800 + 5_000,
    });
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({
      state: 'running',
      remoteId: 'shoot_abc',
      creditsCharged: 8,
    });
    expect(ledgerOf(batch.id)).toEqual([{ jobId: shoot.id, at: T0 + 800, type: 'charge', credits: 8 }]);
    expect(
      ctx.db.prepare('SELECT balance_after FROM ledger WHERE job_id = ?').get(shoot.id) as {
        balance_after: number;
      },
    ).toEqual({ balance_after: 92 });
    expect(ctx.store.jobs.events(shoot.id).map((event) => [event.type, event.value])).toEqual([
      ['state', 'submitting'],
      ['state', 'running'],
      ['remote_status', 'queued'],
    ]);
  });

  it('refuses a remote id already recorded and leaves nothing half-written', () => {
    const batch = ctx.store.createBatch(newBatch());
    const first = shootAndVideo(ctx, batch.id, 0).shoot;
    const second = shootAndVideo(ctx, batch.id, 1).shoot;
    submitAndAccept(ctx, first.id, { remoteId: 'shoot_same' });
    const submitting = ctx.store.jobs.beginSubmit(second.id, {});
    const eventsBefore = ctx.store.jobs.events(second.id);

    expect(() =>
      ctx.store.jobs.acceptSubmit(second.id, acceptance(ctx, submitting, { remoteId: 'shoot_same' })),
    ).toThrow(/UNIQUE/);
    expect(ctx.store.jobs.get(second.id)).toMatchObject({
      state: 'submitting',
      remoteId: null,
      remoteStatus: null,
      creditsCharged: 0,
      acceptedAt: null,
      nextPollAt: null,
    });
    expect(ledgerOf(batch.id).map((entry) => entry.jobId)).toEqual([first.id]);
    expect(ctx.store.jobs.events(second.id)).toEqual(eventsBefore);
  });

  it('rolls the state and the remote id back when the ledger write fails mid-transaction', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    const submitting = ctx.store.jobs.beginSubmit(shoot.id, {});
    // The jobs row is updated first; the ledger then refuses a negative amount inside the transaction.
    expect(() =>
      ctx.store.jobs.acceptSubmit(
        shoot.id,
        acceptance(ctx, submitting, { remoteId: 'shoot_x', credits: -1 }),
      ),
    ).toThrow(/whole, non-negative number of credits/);
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({
      state: 'submitting',
      remoteId: null,
      creditsCharged: 0,
    });
    expect(ledgerOf(batch.id)).toEqual([]);
    expect(stateEvents(shoot.id)).toEqual(['submitting']);
    // The same id can still be recorded properly afterwards.
    ctx.store.jobs.acceptSubmit(shoot.id, acceptance(ctx, submitting, { remoteId: 'shoot_x' }));
    expect(ctx.store.jobs.get(shoot.id)!.remoteId).toBe('shoot_x');
  });

  it('refuses to accept a job whose intent was never committed', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    expect(() => ctx.store.jobs.acceptSubmit(shoot.id, acceptance(ctx, shoot))).toThrow(
      /cannot move from waiting/,
    );
    expect(ledgerOf(batch.id)).toEqual([]);
  });
});

describe('readyToSubmit', () => {
  it('offers only the jobs of running batches', () => {
    const batch = ctx.store.createBatch(newBatch());
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10)).toHaveLength(2);
    ctx.store.batches.setStatus(batch.id, 'paused', 'user');
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10)).toEqual([]);
    ctx.store.batches.setStatus(batch.id, 'running');
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10)).toHaveLength(2);
    ctx.store.batches.setStatus(batch.id, 'cancelled');
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10)).toEqual([]);
  });

  it('offers a video only once its shoot is downloading or done, and before any shoot', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    const other = shootAndVideo(ctx, batch.id, 1);
    const ready = () => ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10).map((job) => job.id);
    expect(ready()).toEqual([shoot.id, other.shoot.id]);

    ctx.store.jobs.beginSubmit(shoot.id, {});
    expect(ready()).toEqual([other.shoot.id]);
    ctx.store.jobs.acceptSubmit(shoot.id, acceptance(ctx, shoot));
    expect(ready()).toEqual([other.shoot.id]);
    complete(ctx, shoot.id, ['a/b/shot-1.png']);
    expect(ready()).toEqual([video.id, other.shoot.id]);
    ctx.store.assets.downloaded(ctx.store.assets.ofJob(shoot.id)[0]!.id, 10, 'f'.repeat(64));
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('done');
    expect(ready()).toEqual([video.id, other.shoot.id]);
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 1).map((job) => job.id)).toEqual([video.id]);
  });

  it('filters by kind, by key and by batch, oldest batch first', () => {
    const older = ctx.store.createBatch(newBatch({ name: 'older' }));
    ctx.clock.now += 1_000;
    const newer = ctx.store.createBatch(newBatch({ name: 'newer' }));
    ctx.clock.now += 1_000;
    const otherKey = ctx.store.createBatch(newBatch({ name: 'other key', keyId: 'key-b' }));
    const shootsOf = (batchId: string) =>
      ctx.store.jobs.ofBatch(batchId).filter((job) => job.kind === 'shoot');

    const all = ctx.store.jobs.readyToSubmit([newer.id, older.id, otherKey.id], 'key-a', 10);
    expect(all.map((job) => job.id)).toEqual(
      [...shootsOf(older.id), ...shootsOf(newer.id)].map((job) => job.id),
    );
    expect(ctx.store.jobs.readyToSubmit([newer.id], 'key-a', 10).map((job) => job.batchId)).toEqual([
      newer.id,
      newer.id,
    ]);
    expect(ctx.store.jobs.readyToSubmit([otherKey.id], 'key-a', 10)).toEqual([]);
    expect(
      ctx.store.jobs.readyToSubmit([older.id, otherKey.id], 'key-b', 10).map((job) => job.batchId),
    ).toEqual([otherKey.id, otherKey.id]);
    expect(ctx.store.jobs.readyToSubmit([older.id], 'key-a', 10, 'video')).toEqual([]);
    expect(ctx.store.jobs.readyToSubmit([older.id], 'key-a', 10, 'shoot')).toHaveLength(2);
    expect(ctx.store.jobs.readyToSubmit([], 'key-a', 10)).toEqual([]);
  });
});

describe('runningByNextPoll', () => {
  it('lists running jobs soonest poll first, with key, kind and limit filters', () => {
    const batch = ctx.store.createBatch(newBatch({ products: products(3) }));
    const shoots = ctx.store.jobs.ofBatch(batch.id).filter((job) => job.kind === 'shoot');
    const polls = [T0 + 30_000, T0 + 10_000, T0 + 20_000];
    shoots.forEach((shoot, index) => {
      submitAndAccept(ctx, shoot.id, { nextPollAt: polls[index]! });
    });
    const order = [shoots[1]!.id, shoots[2]!.id, shoots[0]!.id];
    expect(ctx.store.jobs.runningByNextPoll([batch.id], 'key-a', 10).map((job) => job.id)).toEqual(order);
    expect(ctx.store.jobs.runningByNextPoll([batch.id], null, 10).map((job) => job.id)).toEqual(order);
    expect(ctx.store.jobs.runningByNextPoll([batch.id], 'key-a', 2).map((job) => job.id)).toEqual(
      order.slice(0, 2),
    );
    expect(ctx.store.jobs.runningByNextPoll([batch.id], 'key-b', 10)).toEqual([]);
    expect(ctx.store.jobs.runningByNextPoll([batch.id], 'key-a', 10, 'video')).toEqual([]);
    expect(ctx.store.jobs.runningByNextPoll(['b_other'], null, 10)).toEqual([]);

    ctx.store.jobs.reschedulePoll(shoots[0]!.id, T0 + 1);
    expect(ctx.store.jobs.runningByNextPoll([batch.id], null, 1)[0]!.id).toBe(shoots[0]!.id);
    ctx.store.jobs.markStale(shoots[0]!.id);
    expect(ctx.store.jobs.runningByNextPoll([batch.id], null, 10).map((job) => job.id)).toEqual(
      order.slice(0, 2),
    );
  });
});

describe('polls', () => {
  it('counts every poll and records a remote status only when it changes', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    ctx.store.jobs.recordPoll(shoot.id, 'queued', T0 + 10_000);
    ctx.store.jobs.recordPoll(shoot.id, 'processing', T0 + 20_000);
    ctx.store.jobs.recordPoll(shoot.id, 'processing', T0 + 30_000);
    ctx.store.jobs.deferPoll(shoot.id, T0 + 40_000, 'HTTP 503');
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({
      polls: 4,
      remoteStatus: 'processing',
      nextPollAt: T0 + 40_000,
    });
    expect(
      ctx.store.jobs
        .events(shoot.id)
        .filter((event) => event.type !== 'state')
        .map((event) => [event.type, event.value]),
    ).toEqual([
      ['remote_status', 'queued'],
      ['remote_status', 'processing'],
      ['error', 'HTTP 503'],
    ]);
  });
});

describe('ending jobs', () => {
  it('failRemote refunds the charge in the ledger and skips the waiting video', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id, { credits: 8 });
    ctx.clock.now = T0 + 60_000;
    const failed = ctx.store.jobs.failRemote(shoot.id, 'failed', {
      code: 'generation_failed',
      message: 'model error',
    });
    expect(failed).toMatchObject({
      state: 'failed',
      creditsCharged: 8,
      creditsRefunded: 8,
      finishedAt: T0 + 60_000,
      failureCode: 'generation_failed',
      nextPollAt: null,
      polls: 1,
    });
    expect(ledgerOf(batch.id).map((entry) => [entry.type, entry.credits])).toEqual([
      ['charge', 8],
      ['refund', 8],
    ]);
    expect(ctx.store.jobs.get(video.id)).toMatchObject({ state: 'skipped', failureCode: 'shoot_failed' });
    expect(ctx.store.jobs.get(video.id)!.failureMessage).toContain('model error');
    expect(ctx.store.totals(batch.id)).toMatchObject({ charged: 8, refunded: 8, atStake: 0 });
    // Refused (400) jobs fail without a refund; their videos are skipped too.
    const next = shootAndVideo(ctx, batch.id, 1);
    ctx.store.jobs.beginSubmit(next.shoot.id, {});
    ctx.store.jobs.fail(next.shoot.id, { code: 'invalid_request', message: 'bad photo' });
    expect(ctx.store.jobs.get(next.shoot.id)).toMatchObject({ state: 'failed', creditsRefunded: 0 });
    expect(ctx.store.jobs.get(next.video.id)!.state).toBe('skipped');
    expect(ledgerOf(batch.id)).toHaveLength(2);
  });

  it('a retry commits the shoot and the video its failure skipped again: their price, past the mark', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    ctx.store.jobs.failRemote(shoot.id, 'failed', { code: 'generation_failed', message: 'model error' });
    expect(ctx.store.jobs.retryPrice(shoot.id)).toBe(SHOOT_PRICE + VIDEO_PRICE);
    const mark = ctx.store.jobs.mark();
    expect(ctx.store.jobs.committedSince(mark)).toEqual([]);
    ctx.store.jobs.retry(shoot.id);
    expect(ctx.store.jobs.get(video.id)!.state).toBe('waiting');
    // Another decision that marked before this retry counts both as spent meanwhile.
    expect(ctx.store.jobs.committedSince(mark).map((job) => [job.kind, job.price])).toEqual([
      ['shoot', SHOOT_PRICE],
      ['video', VIDEO_PRICE],
    ]);
    expect(ctx.store.jobs.mark().seq).toBeGreaterThan(mark.seq);
    // A job inserted later still comes after both.
    const later = ctx.store.jobs.mark();
    ctx.store.jobs.insert({
      batchId: batch.id,
      productId: shoot.productId,
      kind: 'shoot',
      afterJobId: null,
      settings: shoot.settings,
      price: SHOOT_PRICE,
    });
    expect(ctx.store.jobs.committedSince(later)).toHaveLength(1);
  });

  it('markOutcomeUnknown holds the video back and puts the price at stake', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    ctx.store.jobs.beginSubmit(shoot.id, {});
    const job = ctx.store.jobs.markOutcomeUnknown(shoot.id, {
      code: 'timeout',
      message: 'no answer in 60 s',
    });
    expect(job).toMatchObject({ state: 'outcome_unknown', failureCode: 'timeout' });
    expect(ctx.store.jobs.get(video.id)!.state).toBe('skipped');
    expect(ctx.store.totals(batch.id)).toMatchObject({ charged: 0, refunded: 0, atStake: SHOOT_PRICE });
    expect(ledgerOf(batch.id)).toEqual([
      { jobId: shoot.id, at: expect.any(Number), type: 'at_stake', credits: SHOOT_PRICE },
    ]);
    expect(ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10).map((ready) => ready.id)).not.toContain(
      shoot.id,
    );
  });

  it("the video held back by its shoot's doubt says why anew once the doubt is settled or abandoned", () => {
    const batch = ctx.store.createBatch(newBatch({ products: products(3) }));
    const settled = [0, 1, 2].map((index) => {
      const { shoot, video } = shootAndVideo(ctx, batch.id, index);
      ctx.store.jobs.beginSubmit(shoot.id, {});
      ctx.store.jobs.markOutcomeUnknown(shoot.id, { code: 'reset', message: 'connection reset' });
      expect(ctx.store.jobs.get(video.id)!.failureMessage).toMatch(/waits for your decision/);
      return { shoot, video };
    });
    const stake = (jobId: JobId) => ({ jobId, attempt: 1, credits: SHOOT_PRICE });
    ctx.store.jobs.resolveStake(stake(settled[0]!.shoot.id), false, 'usage: not charged');
    ctx.store.jobs.resolveStake(stake(settled[1]!.shoot.id), true, 'usage: charged');
    ctx.store.jobs.abandon(settled[2]!.shoot.id);
    const [notCreated, charged, abandoned] = settled.map(({ video }) => ctx.store.jobs.get(video.id)!);
    expect(notCreated).toMatchObject({
      state: 'skipped',
      failureMessage: expect.stringMatching(/did not create it/),
    });
    expect(charged).toMatchObject({
      state: 'skipped',
      failureMessage: expect.stringMatching(/charged it after all/),
    });
    expect(abandoned).toMatchObject({ state: 'skipped', failureMessage: expect.stringMatching(/abandoned/) });
    for (const video of [notCreated, charged, abandoned]) {
      expect(video!.failureMessage).not.toMatch(/waits for your decision/);
    }
  });

  it('markStale stops polling and skips the waiting video', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    const job = ctx.store.jobs.markStale(shoot.id);
    expect(job).toMatchObject({ state: 'stale', nextPollAt: null, failureCode: 'stale' });
    expect(ctx.store.jobs.get(video.id)!.state).toBe('skipped');
    expect(() => ctx.store.jobs.markStale(video.id)).toThrow(/cannot move from skipped to stale/);
  });

  it('completeRemote then assetDownloaded: done once every result is on disk', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    const downloading = complete(ctx, shoot.id, ['B/001 P/shot-1.png', 'B/001 P/shot-2.png']);
    expect(downloading).toMatchObject({
      state: 'downloading',
      remoteStatus: 'completed',
      polls: 1,
      nextPollAt: null,
    });
    const [first, second] = ctx.store.assets.ofJob(shoot.id);
    expect(
      ctx.store.assets.pending([batch.id]).map((asset) => [asset.id, asset.libraryDir, asset.batchId]),
    ).toEqual([
      [first!.id, '/library', batch.id],
      [second!.id, '/library', batch.id],
    ]);

    ctx.store.assets.failed(first!.id, 'cut off', false);
    expect(ctx.store.assets.ofJob(shoot.id)[0]).toMatchObject({
      state: 'pending',
      attempts: 1,
      error: 'cut off',
    });
    ctx.store.assets.downloaded(first!.id, 1234, 'a'.repeat(64));
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('downloading');
    ctx.clock.now = T0 + 99_000;
    ctx.store.assets.downloaded(second!.id, 5678, 'b'.repeat(64));
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({ state: 'done', finishedAt: T0 + 99_000 });
    expect(ctx.store.assets.ofJob(shoot.id)).toMatchObject([
      { state: 'done', bytes: 1234, sha256: 'a'.repeat(64), attempts: 2, error: null },
      { state: 'done', bytes: 5678, sha256: 'b'.repeat(64), attempts: 1 },
    ]);
    expect(ctx.store.assets.pending([batch.id])).toEqual([]);
  });

  it('assetFailed(permanent) leaves the job owed (paid for, not on disk) once nothing is pending', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    complete(ctx, shoot.id, ['B/P/shot-1.png', 'B/P/shot-2.png']);
    const [first, second] = ctx.store.assets.ofJob(shoot.id);
    ctx.store.assets.failed(first!.id, 'the result answered HTTP 503', true);
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('downloading');
    ctx.store.assets.downloaded(second!.id, 10, 'c'.repeat(64));
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({
      state: 'owed',
      failureCode: 'download_failed',
      failureMessage: `Paid for (${SHOOT_PRICE} credits) but not downloaded: the result answered HTTP 503. Download again to fetch it without paying again.`,
    });
    // The service charged for it: no refund.
    expect(ctx.store.totals(batch.id)).toMatchObject({ charged: SHOOT_PRICE, refunded: 0 });

    // Downloading again: the failed result only, from its first attempt; the done one stays done.
    ctx.store.jobs.redownload(shoot.id);
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({ state: 'downloading' });
    expect(ctx.store.assets.ofJob(shoot.id).map((asset) => [asset.state, asset.attempts])).toEqual([
      ['pending', 0],
      ['done', 1],
    ]);
    expect(ctx.store.jobs.events(shoot.id).at(-1)).toMatchObject({
      type: 'state',
      value: 'downloading',
      detail: { decision: 'redownload' },
    });
    // A result the service no longer serves says so, with the credits involved.
    ctx.store.assets.failed(first!.id, 'the result answered HTTP 404', true);
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({
      state: 'owed',
      failureCode: 'results_gone',
      failureMessage: `The service no longer serves a result of this job (the result answered HTTP 404); it charged ${SHOOT_PRICE} credits for it. Download again to try once more.`,
    });
  });

  // A shoot whose results are owed was made: the service has its shots, so its video is made from them.
  it('a shoot whose download fails for good does not leave its video waiting forever', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    ctx.store.batches.setStatus(batch.id, 'paused', 'insufficient_credits');
    complete(ctx, shoot.id, ['B/P/shot-1.png']);
    ctx.store.assets.failed(ctx.store.assets.ofJob(shoot.id)[0]!.id, 'HTTP 404', true);
    ctx.store.batches.setStatus(batch.id, 'running');
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('owed');
    const ready = ctx.store.jobs.readyToSubmit([batch.id], 'key-a', 10).map((job) => job.id);
    expect(ready).toContain(video.id);
  });

  // A completed job with no result to download (a video whose video_url is null) is never recorded as
  // complete: the runner polls it again, then marks it stale on that answer (its charge in doubt).
  it('a completed job with no result to download is not recorded; stale on that answer, its video held', () => {
    const batch = ctx.store.createBatch(newBatch());
    const { shoot, video } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    expect(() => complete(ctx, shoot.id, [])).toThrow(/without results is not recorded/);
    expect(ctx.store.jobs.get(shoot.id)!.state).toBe('running');
    ctx.store.jobs.markStale(shoot.id, { answer: 'no_results', polls: 5 });
    expect(ctx.store.jobs.get(shoot.id)).toMatchObject({ state: 'stale', failureCode: 'no_results' });
    expect(ctx.store.jobs.get(shoot.id)!.failureMessage).toMatch(/completed it without a result to download/);
    expect(ctx.store.jobs.get(video.id)!.state).toBe('skipped');
    // Checked again and answered so again: the same answer's `_again`, for the same attempt.
    ctx.store.jobs.recheck(shoot.id, T0 + 60_000);
    ctx.store.jobs.markStale(shoot.id, { answer: 'no_results', polls: 5 });
    expect(ctx.store.jobs.get(shoot.id)!.failureCode).toBe('no_results_again');
  });
});

describe('totals', () => {
  it('counts jobs by state and sums charges, refunds and the credits at stake', () => {
    const batch = ctx.store.createBatch(newBatch({ products: products(3) }));
    const a = shootAndVideo(ctx, batch.id, 0);
    const b = shootAndVideo(ctx, batch.id, 1);
    const c = shootAndVideo(ctx, batch.id, 2);
    submitAndAccept(ctx, a.shoot.id, { credits: 8 });
    complete(ctx, a.shoot.id, ['B/P/1.png']);
    ctx.store.assets.downloaded(ctx.store.assets.ofJob(a.shoot.id)[0]!.id, 1, 'd'.repeat(64));
    submitAndAccept(ctx, a.video.id, { credits: 34 });
    ctx.store.jobs.failRemote(a.video.id, 'failed', { code: 'render_failed', message: 'x' });
    ctx.store.jobs.beginSubmit(b.shoot.id, {});
    ctx.store.jobs.markOutcomeUnknown(b.shoot.id, { code: 'reset', message: 'connection reset' });
    submitAndAccept(ctx, c.shoot.id, { credits: 9 });

    expect(ctx.store.totals(batch.id)).toEqual({
      jobs: 6,
      byState: { done: 1, failed: 1, outcome_unknown: 1, skipped: 1, running: 1, waiting: 1 },
      charged: 8 + 34 + 9,
      refunded: 34,
      atStake: SHOOT_PRICE,
      // a's shoot and video, and c's shoot; b's may have been created, but no 201 says so.
      created: 3,
      // A shoot and a video of each product.
      videos: 3,
      // In doubt: b's shoot, its price at stake; c's is still running, a's were settled.
      inDoubt: SHOOT_PRICE,
      staleOnAnswers: 0,
    });
    expect(ctx.store.totals('b_missing')).toEqual({
      jobs: 0,
      byState: {},
      charged: 0,
      refunded: 0,
      atStake: 0,
      videos: 0,
      created: 0,
      inDoubt: 0,
      staleOnAnswers: 0,
    });
  });
});

describe('setBatchStatus', () => {
  it('moves a batch along its table, keeps the reason, and refuses other moves', () => {
    const batch = ctx.store.createBatch(newBatch());
    ctx.clock.now = T0 + 5;
    ctx.store.batches.setStatus(batch.id, 'paused', 'insufficient_credits');
    expect(ctx.store.batches.get(batch.id)).toMatchObject({
      status: 'paused',
      statusReason: 'insufficient_credits',
      updatedAt: T0 + 5,
    });
    ctx.store.batches.setStatus(batch.id, 'paused', 'user');
    expect(ctx.store.batches.get(batch.id)!.statusReason).toBe('user');
    ctx.store.batches.setStatus(batch.id, 'cancelled');
    expect(() => ctx.store.batches.setStatus(batch.id, 'running')).toThrow(
      /cannot move from cancelled to running/,
    );
    expect(() => ctx.store.batches.setStatus(batch.id, 'paused')).toThrow(/cannot move/);
    expect(ctx.store.batches.get(batch.id)!.status).toBe('cancelled');
    ctx.store.batches.setStatus(batch.id, 'finished');
    expect(() => ctx.store.batches.setStatus(batch.id, 'paused')).toThrow(
      /cannot move from finished to paused/,
    );
    expect(ctx.store.batches.unfinished()).toEqual([]);
    expect(() => ctx.store.batches.setStatus('b_missing' as BatchId, 'paused')).toThrow(/no batch/);
  });
});

describe('allTotals', () => {
  it('gives every batch the same totals as asking one by one, and its product count', () => {
    const first = ctx.store.createBatch(newBatch({ products: products(3) }));
    const second = ctx.store.createBatch(newBatch({ products: products(2), video: null }));
    const [shoot] = ctx.store.jobs.ofBatch(first.id);
    submitAndAccept(ctx, shoot!.id);
    const other = ctx.store.jobs.ofBatch(second.id)[0]!;
    submitAndAccept(ctx, other.id);
    ctx.store.jobs.failRemote(other.id, 'failed', { code: 'generation_failed', message: 'failed' });
    const all = ctx.store.allTotals();
    for (const batch of [first, second]) {
      const { products: count, ...totals } = all.get(batch.id)!;
      expect(totals).toEqual(ctx.store.totals(batch.id));
      expect(count).toBe(ctx.store.batches.productCount(batch.id));
    }
    expect(all.get(second.id)).toMatchObject({ charged: SHOOT_PRICE, refunded: SHOOT_PRICE, products: 2 });
  });
});
