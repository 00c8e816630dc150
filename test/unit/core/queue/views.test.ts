import { describe, expect, it } from 'vitest';
import { FileGateway } from '../../../../src-main/core/app/files.ts';
import { type BatchFacts, batchDetail, batchProgress } from '../../../../src-main/core/queue/views.ts';
import { etaWords } from '../../../../src-main/shared/words.ts';
import {
  complete,
  newBatch,
  products,
  SHOOT,
  shootAndVideo,
  storePerTest,
  submitAndAccept,
} from './store-fixtures.ts';

// Batches as the renderer sees them, over a real store: which jobs count as needing a person, and which as
// work still to do.

const ctx = storePerTest();
const facts: BatchFacts = {
  key: () => ({ accountName: 'Sandbox', held: true }),
  upload: () => null,
  pace: () => ({ rateLimit: { limit: 60, windowMs: 60_000 }, sandboxTimeScale: 1 }),
  service: () => null,
  now: () => ctx.clock.now,
};
const files = new FileGateway((token) => `/files/${token}`);

/** Five products: the first's shoot done, then an unknown outcome, a stale shoot, a failed one, one not sent. */
function batchInEveryState() {
  const batch = ctx.store.createBatch(newBatch({ products: products(5) }));
  const [done, unknown, stale, failed] = [0, 1, 2, 3].map((position) =>
    shootAndVideo(ctx, batch.id, position),
  );
  submitAndAccept(ctx, done!.shoot.id);
  complete(ctx, done!.shoot.id, ['B/P/1.png']);
  ctx.store.assets.downloaded(ctx.store.assets.ofJob(done!.shoot.id)[0]!.id, 1, 'd'.repeat(64));
  ctx.store.jobs.beginSubmit(unknown!.shoot.id, {});
  ctx.store.jobs.markOutcomeUnknown(unknown!.shoot.id, { code: 'reset', message: 'connection reset' });
  submitAndAccept(ctx, stale!.shoot.id);
  ctx.store.jobs.markStale(stale!.shoot.id);
  submitAndAccept(ctx, failed!.shoot.id);
  ctx.store.jobs.failRemote(failed!.shoot.id, 'failed', { code: 'generation_failed', message: 'failed' });
  return ctx.store.batches.get(batch.id)!;
}

describe('batch views', () => {
  it('count an unknown outcome and a stale job as needing a person, not a failed, done or waiting one', () => {
    const batch = batchInEveryState();
    expect(batchProgress(ctx.store, batch, facts)).toMatchObject({
      jobs: 10,
      done: 1,
      failed: 1,
      attention: 2,
    });
  });

  it("estimate from the jobs with work left only: the first product's video and the unsent product's two", () => {
    const batch = batchInEveryState();
    ctx.clock.now += 60_000;
    const eta = batchDetail(ctx.store, batch, facts, files, ctx.clock.now).eta!;
    // Nothing learned: the unsent product's shoot (guessed 30 s) then its video (3 min) are the longest
    // chain left, said as a range. The jobs waiting on a person are not running: no stall can be said.
    expect(eta.range).toBe(true);
    expect(eta.from).toBeLessThan(eta.at);
    expect(eta.at).toBeLessThan(eta.to);
    expect(eta.at - ctx.clock.now).toBeGreaterThan(120_000);
    expect(eta.at - ctx.clock.now).toBeLessThan(600_000);
    expect(eta.stalledAt).toBeNull();
    // A paused batch has no ETA.
    ctx.store.batches.setStatus(batch.id, 'paused', 'user');
    expect(batchProgress(ctx.store, ctx.store.batches.get(batch.id)!, facts).eta).toBeNull();
  });

  it('count the wait on the service from when work was last given, not from a completion long before it', () => {
    const batch = ctx.store.createBatch(newBatch({ video: null, products: products(1) }));
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    complete(ctx, shoot.id, ['B/P/1.png']);
    ctx.store.assets.downloaded(ctx.store.assets.ofJob(shoot.id)[0]!.id, 1, 'd'.repeat(64));
    ctx.store.batches.setStatus(batch.id, 'finished');
    // Forty minutes later the designer asks for more of the same batch (a reshoot, videos from the picks).
    ctx.clock.now += 40 * 60_000;
    ctx.store.addJobs(batch.id, [
      { productId: shoot.productId, kind: 'shoot', afterJobId: null, settings: SHOOT, price: 8 },
    ]);
    const added = ctx.store.jobs.ofBatch(batch.id).find((job) => job.state === 'waiting')!;
    ctx.clock.now += 5_000;
    submitAndAccept(ctx, added.id);
    ctx.clock.now += 10_000;
    const running = ctx.store.batches.get(batch.id)!;
    const eta = batchDetail(ctx.store, running, facts, files, ctx.clock.now).eta!;
    expect(eta.stalledAt).toBeGreaterThan(ctx.clock.now);
    expect(etaWords(eta, ctx.clock.now)).not.toMatch(/waiting on the service/);
    // Left to run past the stall, it is said from when the work was given: 15 s ago, not 40 min.
    expect(etaWords(eta, eta.stalledAt!)).toBe(
      `waiting on the service for ${Math.round((eta.stalledAt! - ctx.clock.now + 15_000) / 60_000)} min`,
    );
  });
});
