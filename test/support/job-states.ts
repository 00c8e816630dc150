import { join } from 'node:path';
import { openDatabase } from '../../src-main/core/db/open.ts';
import type { BatchId, JobId } from '../../src-main/core/queue/ids.ts';
import { QueueStore } from '../../src-main/core/queue/store.ts';
import type { Job } from '../../src-main/core/queue/types.ts';
import type { JobState } from '../../src-main/shared/vocabulary.ts';
import { complete, type StoreContext, submitAndAccept } from '../unit/core/queue/store-fixtures.ts';

// Jobs in any state, as the engine leaves them, on a data folder's real database: for tests of what each
// state offers (the decisions core allows, the app's buttons) without waiting for a service to misbehave.

/**
 * The queue's own store on `dataDir`'s database, as the engine writes it; closed once `build` returns, so a
 * core can open the folder next.
 */
export function withQueueStore<T>(dataDir: string, build: (ctx: StoreContext) => T): T {
  const file = join(dataDir, 'adbatch.db');
  const db = openDatabase(file);
  const clock = { now: Date.now() };
  try {
    return build({
      dir: dataDir,
      file,
      db,
      store: new QueueStore(db, () => clock.now),
      clock,
      close: async () => {},
    });
  } finally {
    db.close();
  }
}

/**
 * A product's shoot (or, for `skipped`, its video) carried into a state by the store calls the engine makes;
 * the id of the job now in it.
 */
export const INTO_STATE: Record<JobState, (ctx: StoreContext, shoot: Job, video: Job) => JobId> = {
  waiting: (_ctx, shoot) => shoot.id,
  submitting: (ctx, shoot) => ctx.store.jobs.beginSubmit(shoot.id, {}).id,
  running: (ctx, shoot) => submitAndAccept(ctx, shoot.id).id,
  downloading: (ctx, shoot) => {
    submitAndAccept(ctx, shoot.id);
    return complete(ctx, shoot.id, [`results/${shoot.id}-1.png`]).id;
  },
  done: (ctx, shoot, video) => {
    INTO_STATE.downloading(ctx, shoot, video);
    ctx.store.assets.downloaded(ctx.store.assets.ofJob(shoot.id)[0]!.id, 1, 'd'.repeat(64));
    return shoot.id;
  },
  owed: (ctx, shoot, video) => {
    INTO_STATE.downloading(ctx, shoot, video);
    ctx.store.assets.failed(ctx.store.assets.ofJob(shoot.id)[0]!.id, 'the result answered HTTP 404', true);
    return shoot.id;
  },
  failed: (ctx, shoot) => {
    submitAndAccept(ctx, shoot.id);
    return ctx.store.jobs.failRemote(shoot.id, 'failed', { code: 'generation_failed', message: 'failed' }).id;
  },
  outcome_unknown: (ctx, shoot) => {
    ctx.store.jobs.beginSubmit(shoot.id, {});
    return ctx.store.jobs.markOutcomeUnknown(shoot.id, { code: 'reset', message: 'connection reset' }).id;
  },
  // The usage report found the lost answer's create charged.
  lost: (ctx, shoot, video) => {
    const id = INTO_STATE.outcome_unknown(ctx, shoot, video);
    const stake = ctx.store.ledger.unresolved({ batchId: shoot.batchId }).find((one) => one.jobId === id);
    ctx.store.jobs.resolveStake(stake!, true, 'resolved by a usage report');
    return id;
  },
  stale: (ctx, shoot) => {
    submitAndAccept(ctx, shoot.id);
    return ctx.store.jobs.markStale(shoot.id).id;
  },
  cancelled: (ctx, shoot, video) => {
    INTO_STATE.outcome_unknown(ctx, shoot, video);
    return ctx.store.jobs.abandon(shoot.id).id;
  },
  // A video whose shoot failed has nothing to be made from.
  skipped: (ctx, shoot, video) => {
    INTO_STATE.failed(ctx, shoot, video);
    return video.id;
  },
};

/** The shoot and the video (or, without one, the shoot again) of each product of a batch, in order. */
export function productJobs(ctx: StoreContext, batchId: string): Array<{ shoot: Job; video: Job }> {
  const jobs = ctx.store.jobs.ofBatch(batchId);
  return ctx.store.batches.products(batchId).map((product) => {
    const shoot = jobs.find((job) => job.productId === product.id && job.kind === 'shoot')!;
    return {
      shoot,
      video: jobs.find((job) => job.productId === product.id && job.kind === 'video') ?? shoot,
    };
  });
}

/** Every job of the batch failed at the service (refunded), as the engine records it: their ids. */
export function failEveryJob(dataDir: string, batchId: string): JobId[] {
  return withQueueStore(dataDir, (ctx) =>
    ctx.store.jobs.ofBatch(batchId as BatchId).map((job) => INTO_STATE.failed(ctx, job, job)),
  );
}
