import type { jobsChannels } from '../../shared/contract/queue.ts';
import type { AppContext } from '../app/context.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { abandonJob, recheckJob, redownloadJob, requireBatch, requireJob, retryJob } from './decisions.ts';
import type { QueueDriver } from './queue-driver.ts';
import type { QueueStore } from './store.ts';
import { batchSummary, jobView, stakesOf } from './views.ts';

// The user's decisions on jobs that need one: failed, outcome unknown, stale.

export function jobsHandlers(
  ctx: AppContext & { store: QueueStore; queue: QueueDriver },
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
      return { batchId: job.batchId, job: jobView(job, [], stakesOf(store, job.batchId)) };
    },
    'jobs:retry': async ({ id }) => decided(retryJob(store, id).batchId),
    'jobs:abandon': async ({ id }) => decided(abandonJob(store, id).batchId),
    'jobs:recheck': async ({ id }) => decided(recheckJob(store, id, ctx.now()).batchId),
    'jobs:redownload': async ({ id }) => {
      const recovery = await redownloadJob({ store, remoteJob: queue.remoteJob }, id);
      await queue.goOnAfter(recovery);
      return batchSummary(store, recovery.batch, queue.facts);
    },
  };
}
