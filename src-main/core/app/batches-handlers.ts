import type { PhotoReach, QuoteRequest } from '../../shared/models.ts';
import { setAsideEarlierShots } from '../ingest/already-done.ts';
import { quoteBatch, quoteVideo } from '../pricing.ts';
import type { ShootSettings, VideoSettings } from '../queue/types.ts';
import { SANDBOX_ACCOUNT_ID } from './accounts.ts';
import { billingOf, capRefusal } from './batch-brand.ts';
import type { CoreContext } from './context.ts';
import { cancelBatch, pauseBatch, redownloadBatch, requireBatch, resumeBatch } from './decisions.ts';
import type { HandlerMap } from './dispatch.ts';
import { AppError } from './errors.ts';
import { NO_STORAGE } from './photo-reach.ts';
import { relocateBatch } from './relocate.ts';
import { lastBatchSettings } from './schemas.ts';
import { batchDetail, batchSummaries, batchSummary } from './views.ts';

// Batches: the quote (what a batch will cost, against the balance), its creation, and the user's pause,
// resume and cancel.

export function batchesHandlers(
  ctx: CoreContext,
): Pick<
  HandlerMap,
  | 'batches:quote'
  | 'batches:create'
  | 'batches:list'
  | 'batches:lastSettings'
  | 'batches:get'
  | 'batches:pause'
  | 'batches:resume'
  | 'batches:cancel'
  | 'batches:redownload'
  | 'batches:relocate'
> {
  const { store, services, photos, queue, scans, log, events, brands } = ctx;
  const summary = (id: string) => batchSummary(store, requireBatch(store, id), queue.facts);

  /** For `create`: the balance is asked again, and a batch whose photos cannot be reached is refused first. */
  const quoteFor = async (request: QuoteRequest, purpose: 'preview' | 'create') => {
    const products = scans.products(request.scanId);
    const shoot = request.shoot as ShootSettings;
    // Videos after review are made later, from the picks: the batch itself has no video, and is quoted
    // without one; their price per product is said apart.
    const later = request.videoWhen === 'after_review' ? (request.video as VideoSettings | null) : null;
    const video = later ? null : (request.video as VideoSettings | null);
    const { fresh, setAside } = setAsideEarlierShots(store, products, shoot, video, request.includeDone);
    const local = fresh.some((product) => product.photos.some((photo) => photo.path));
    const sandbox = request.accountId === SANDBOX_ACCOUNT_ID;
    const baseUrl = sandbox ? 'sandbox' : services.account(request.accountId).baseUrl;
    const reach: PhotoReach = local ? photos.reachOf(sandbox, baseUrl) : { kind: 'urls' };
    if (purpose === 'create' && reach.kind === 'missing') throw new AppError('bad_request', NO_STORAGE);
    const quote = quoteBatch(
      fresh.map((product) => product.name),
      shoot,
      video,
      await services.balanceOf(request.accountId, purpose === 'create'),
    );
    const billing = billingOf(request, quote.credits, { store, brands, services });
    return { fresh, setAside, quote, shoot, video, later, reach, sandbox, baseUrl, billing };
  };

  return {
    'batches:quote': async (request) => {
      const { quote, setAside, reach, later, billing } = await quoteFor(request, 'preview');
      return {
        products: quote.products.map((row) => ({
          product: row.product,
          shots: row.shoot.shots,
          clamped: row.shoot.clamped,
          shootCredits: row.shoot.credits,
          videoCredits: row.videoCredits ?? 0,
          credits: row.credits,
        })),
        credits: quote.credits,
        balance: quote.balance,
        shortfall: quote.shortfall ?? 0,
        setAside,
        photos: reach,
        videoLaterCredits: later ? quoteVideo(later) : null,
        caps: billing.caps,
        attributionWarning: billing.attributionWarning,
      };
    },
    'batches:create': async (request) => {
      const { fresh, quote, shoot, video, later, sandbox, baseUrl, billing } = await quoteFor(
        request,
        'create',
      );
      if (fresh.length === 0) {
        throw new AppError('conflict', 'Every product was already shot with these photos and settings.');
      }
      if (quote.shortfall) {
        throw new AppError(
          'conflict',
          `This batch costs ${quote.credits} credits; the balance is ${quote.balance}. Top up or choose fewer products.`,
        );
      }
      const overCap = capRefusal(billing, quote.credits);
      if (overCap) throw new AppError('refused', overCap);
      const { keyId, keyHint } = await services.keyedClient(request.accountId);
      const batch = store.createBatch({
        name: request.name,
        accountId: services.accountForBatch(request.accountId),
        baseUrl,
        keyId,
        keyHint,
        sandbox,
        libraryDir: ctx.settings().libraryDir,
        shoot,
        video,
        videosAfterReview: later,
        brandId: billing.brandId,
        creditCap: billing.creditCap,
        products: fresh,
      });
      services.forgetBalance(request.accountId);
      ctx.writeSettings({
        ...ctx.settings(),
        lastBatch: {
          accountId: request.accountId,
          shoot: request.shoot,
          video: request.video,
          videoWhen: request.video ? (request.videoWhen ?? 'at_once') : null,
        },
      });
      log.info(`batch ${batch.id} created: ${fresh.length} products, ${quote.credits} credits`);
      await queue.drive(batch);
      events.emit('batches:changed', { id: batch.id });
      return batchSummary(store, batch, queue.facts);
    },
    'batches:list': async () => batchSummaries(store, queue.facts, ctx.files),
    // Read back only while they still hold: a catalog or an account that changed since gives New batch's defaults.
    'batches:lastSettings': async () => {
      const kept = lastBatchSettings.safeParse(ctx.settings().lastBatch);
      if (!kept.success) return null;
      const known =
        kept.data.accountId === SANDBOX_ACCOUNT_ID ||
        services.accountsList().some((account) => account.id === kept.data.accountId);
      return known ? kept.data : { ...kept.data, accountId: SANDBOX_ACCOUNT_ID };
    },
    'batches:get': async ({ id }) =>
      batchDetail(store, requireBatch(store, id), queue.facts, ctx.files, ctx.now()),
    'batches:pause': async ({ id }) => {
      pauseBatch(store, id);
      queue.nudge(id);
      return summary(id);
    },
    'batches:resume': async ({ id }) => {
      await queue.drive(resumeBatch(store, id));
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
    'batches:redownload': async ({ id }) => {
      const { batch } = await redownloadBatch(store, id);
      await queue.drive(batch);
      return summary(id);
    },
  };
}
