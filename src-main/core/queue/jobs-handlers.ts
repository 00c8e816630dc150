import type { jobsChannels } from '../../shared/contract/queue.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { UnknownOutcomeDeps } from '../ledger/unknown-outcomes.ts';
import { checkAgain } from './check-again.ts';
import {
  abandonJob,
  isSuperseded,
  recheckJob,
  redownloadJob,
  requireBatch,
  requireJob,
  requireRetryable,
  retryJob,
} from './decisions.ts';
import type { QueueDriver } from './queue-driver.ts';
import { batchSummary, jobView, stakesOf } from './views.ts';

// The user's decisions on jobs that need one: failed, lost, outcome unknown, stale, owed.

export function jobsHandlers(
  ctx: UnknownOutcomeDeps & { queue: QueueDriver },
): HandlersOf<typeof jobsChannels> {
  const { store, queue } = ctx;
  const decided = async (batchId: string) => {
    const batch = requireBatch(store, batchId);
    await queue.drive(batch);
    return batchSummary(store, batch, queue.facts);
  };
  return {
    'jobs:get': async ({ id }) => {
      const job = requireJob(store, id);
      const superseded = isSuperseded(store, job);
      return {
        batchId: job.batchId,
        job: jobView(job, [], stakesOf(store, job.batchId), superseded, ctx.now()),
      };
    },
    'jobs:retry': async ({ id }) => {
      // What cannot be retried is said before the service is asked anything; the balance is asked anew,
      // after the mark, so that what another decision commits meanwhile is counted (spend.ts).
      const job = requireRetryable(store, id);
      const batch = requireBatch(store, job.batchId);
      const mark = store.jobs.mark();
      const balance = await ctx.services.balanceOfBatch(batch, true);
      const retried = retryJob(store, id, { balance, keyId: batch.keyId, mark });
      ctx.services.forgetBatchBalance(batch);
      return decided(retried.batchId);
    },
    'jobs:abandon': async ({ id }) => decided(abandonJob(store, id).batchId),
    'jobs:recheck': async ({ id }) => {
      const job = recheckJob(store, id, ctx.now());
      if (job.state === 'outcome_unknown') await checkAgain(ctx, requireBatch(store, job.batchId), [job]);
      return decided(job.batchId);
    },
    'jobs:redownload': async ({ id }) => {
      const recovery = await redownloadJob({ store, remoteJob: queue.remoteJob }, id);
      await queue.goOnAfter(recovery);
      return batchSummary(store, recovery.batch, queue.facts);
    },
  };
}
