import type { batchesChannels } from '../../shared/contract/queue.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { ScanHolder } from '../ingest/scan-holder.ts';
import { gridPreviewOnDisk } from '../review/previews.ts';
import { type BatchMakerDeps, batchMaker } from './batch-maker.ts';
import { checkAllAgain } from './check-again.ts';
import { cancelBatch, pauseBatch, redownloadBatch, requireBatch, resumeBatch } from './decisions.ts';
import { relocateBatch } from './relocate.ts';
import { batchDetail, batchSummaries, batchSummary } from './views.ts';

// Batches: the quote (what a batch will cost, against the balance), its creation, and the user's pause,
// resume and cancel.

export function batchesHandlers(
  ctx: BatchMakerDeps & { scans: ScanHolder },
): HandlersOf<typeof batchesChannels> {
  const { store, services, queue, scans } = ctx;
  const summary = (id: string) => batchSummary(store, requireBatch(store, id), queue.facts);

  const maker = batchMaker(ctx);
  const recovery = { store, remoteJob: queue.remoteJob };

  return {
    'batches:quote': (request) => maker.quote(request, scans.products(request.scanId)),
    'batches:create': async (request) => {
      const prepared = await maker.prepare({ request, products: scans.products(request.scanId) });
      const batch = maker.commit(prepared);
      ctx.writeSettings({
        ...ctx.settings(),
        lastBatch: {
          accountId: request.accountId,
          shoot: request.shoot,
          video: request.video,
          videoWhen: request.video ? (request.videoWhen ?? 'at_once') : null,
        },
      });
      await maker.start(batch);
      return batchSummary(store, batch, queue.facts);
    },
    'batches:list': async () => batchSummaries(store, queue.facts, ctx.files),
    // Read back only while they still hold (settings are parsed on read, db/stored.ts): a catalog or an
    // account that changed since gives New batch's defaults.
    'batches:lastSettings': async () => {
      const kept = ctx.settings().lastBatch;
      if (!kept) return null;
      const known =
        kept.accountId === SANDBOX_ACCOUNT_ID ||
        services.accountsList().some((account) => account.id === kept.accountId);
      return known ? kept : { ...kept, accountId: SANDBOX_ACCOUNT_ID };
    },
    'batches:get': async ({ id }) =>
      batchDetail(store, requireBatch(store, id), queue.facts, ctx.files, ctx.now(), (sha256) =>
        gridPreviewOnDisk(ctx.dataDir, sha256),
      ),
    'batches:pause': async ({ id }) => {
      pauseBatch(store, id);
      queue.nudge(id);
      return summary(id);
    },
    'batches:resume': async ({ id }) => {
      await queue.goOnAfter(await resumeBatch(recovery, id));
      return summary(id);
    },
    'batches:cancel': async ({ id }) => {
      cancelBatch(store, id);
      queue.nudge(id);
      return summary(id);
    },
    'batches:relocate': async ({ id, libraryDir }) => {
      const batch = await relocateBatch(store, id, libraryDir);
      await queue.drive(batch);
      return summary(id);
    },
    'batches:recheck': async ({ id }) => {
      await queue.drive(await checkAllAgain(ctx, id));
      return summary(id);
    },
    'batches:redownload': async ({ id }) => {
      await queue.goOnAfter(await redownloadBatch(recovery, id));
      return summary(id);
    },
  };
}
