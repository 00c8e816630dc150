import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileGateway } from '../../../../src-main/core/app/files.ts';
import { type BatchFacts, batchDetail, batchProgress } from '../../../../src-main/core/queue/views.ts';
import {
  complete,
  newBatch,
  openStore,
  products,
  type StoreContext,
  shootAndVideo,
  submitAndAccept,
} from './store-fixtures.ts';

// Batches as the renderer sees them, over a real store: which jobs count as needing a person, and which as
// work still to do.

let ctx: StoreContext;
const facts: BatchFacts = { key: () => ({ accountName: 'Sandbox', held: true }), upload: () => null };
const files = new FileGateway((token) => `/files/${token}`);

beforeEach(async () => {
  ctx = await openStore();
});
afterEach(async () => {
  await ctx.close();
});

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
    const elapsed = ctx.clock.now - batch.createdAt;
    // One job finished in `elapsed`; three are left (the others wait on a person or are over).
    expect(batchDetail(ctx.store, batch, facts, files, ctx.clock.now).etaMs).toBe(elapsed * 3);
  });
});
