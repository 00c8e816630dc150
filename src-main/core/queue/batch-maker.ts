import { counted } from '../../shared/counted.ts';
import type { PhotoReach, QuoteRequest, QuoteView } from '../../shared/models.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { DatabaseBackups } from '../db/backups.ts';
import type { ExportRecords } from '../export/export-records.ts';
import { qualityAdvice } from '../export/quality-advice.ts';
import type { PhotoReachService } from '../hosting/photo-reach.ts';
import { NO_STORAGE } from '../hosting/photo-reach.ts';
import { setAsideEarlierShots } from '../ingest/already-done.ts';
import type { BrandStore } from '../ledger/brand-store.ts';
import { quoteBatch, quoteVideo, videoPrice } from '../pricing.ts';
import { billingOf, capRefusal } from './batch-brand.ts';
import { productFingerprint } from './fingerprint.ts';
import type { SpendMark } from './job-store.ts';
import type { QueueDriver } from './queue-driver.ts';
import { balanceLeft, balanceWords, decideSpending } from './spend.ts';
import type { QueueStore } from './store.ts';
import type { Batch, NewBatch, NewProduct, ShootSettings, VideoSettings } from './types.ts';

// How a batch is priced and made, from settings and scanned products, for every front end that makes one:
// New batch and `adbatch run` (`batches:create`, the products of a scan held in memory), and an agent's
// request once a person approved it (its products kept in the database). Making one is in three steps:
// `prepare` asks the service (balance, key), `commit` checks every limit again and writes, in one spending
// decision (spend.ts) that may carry the caller's own check and writes, `start` hands the batch to the queue.

export interface BatchPlan {
  request: QuoteRequest & { name: string };
  products: NewProduct[];
}

/** What `prepare` checked and `commit` writes. */
export interface PreparedBatch {
  plan: BatchPlan;
  credits: number;
  balance: number | null;
  batch: NewBatch;
  /** The jobs' mark taken before the balance was asked (spend.ts). */
  mark: SpendMark;
}

/** What an agent's request adds to a batch's spending decision: its allowance checked, its move written. */
export interface CommitAlso {
  agentClient?: string;
  /** Throws when a limit of the caller's no longer holds (run in the transaction, before the batch's rows). */
  check?: () => void;
  /** The caller's own writes, in the same transaction as the batch's rows. */
  record?: (batch: Batch) => void;
}

const tooDear = (credits: number, balanceSaid: string) =>
  `This batch costs ${counted(credits, 'credit')}; ${balanceSaid}. Top up or choose fewer products.`;

/**
 * What making a batch takes: the queue, the key's service, photo reach, the brands' caps, the backups, and
 * the exports made before (the recipes the quote measures the quality against).
 */
export interface BatchMakerDeps extends AppContext {
  exportRecords: ExportRecords;
  backups: DatabaseBackups;
  store: QueueStore;
  services: ServiceAccess;
  photos: PhotoReachService;
  brands: BrandStore;
  queue: QueueDriver;
}

export function batchMaker(ctx: BatchMakerDeps) {
  const { store, services, photos, brands, queue, events, log } = ctx;

  /** For `create`, the balance is asked again and a batch whose photos cannot be reached is refused first. */
  const quoteFor = async (
    request: QuoteRequest,
    products: NewProduct[],
    purpose: 'preview' | 'fresh' | 'create',
  ) => {
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
    // The cost is set against what the balance leaves once the key's jobs not yet charged are (spend.ts).
    const said = await services.balanceOf(request.accountId, purpose !== 'preview');
    const { keyId } = await services.keyedClient(request.accountId);
    // A preview's balance may come from the cache (up to 30 s old): what the key's jobs were charged since
    // is taken off, or New batch beside a running batch showed credits already spent as free. A fresh one
    // is exact, and the start's own rule counts what is charged meanwhile (spend.ts `balanceLeft`).
    const balance = said.credits - (purpose === 'preview' ? store.jobs.chargedSince(keyId, said.at) : 0);
    const promised = store.jobs.notYetCharged(keyId);
    const quote = quoteBatch(
      fresh.map((product) => product.name),
      shoot,
      video,
      balance - promised,
    );
    const billing = billingOf(request, quote.credits, { store, brands, services });
    return {
      fresh,
      setAside,
      quote,
      balance,
      promised,
      shoot,
      video,
      later,
      reach,
      sandbox,
      baseUrl,
      billing,
    };
  };

  /**
   * Run in the spending decision's transaction: throws the refusal when a limit no longer holds.
   *
   * GUESS: a batch made meanwhile with the same products and settings refuses this one even when it was
   * asked to shoot them again (`includeDone`): of two such asks at once, the second is a double click, not
   * a second wish; asked again afterwards, it is made.
   */
  const refuseWhatChangedMeanwhile = (prepared: PreparedBatch) => {
    const { batch, credits, mark, plan } = prepared;
    const meanwhile = store.jobs.committedSince(mark);
    const fingerprints = new Set(
      batch.products.map((product) => productFingerprint(product.photos, batch.shoot, batch.video)),
    );
    const same = meanwhile.filter((job) => fingerprints.has(job.fingerprint));
    if (same.length > 0) {
      const names = [...new Set(same.map((job) => job.productName))];
      const { batchId, batchName } = same[0]!;
      throw new AppError(
        'conflict',
        `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} already being shot from these photos with these settings, in batch ${batchId} ("${batchName}") made meanwhile: nothing was made.`,
      );
    }
    if (prepared.balance !== null) {
      const left = balanceLeft(store, { balance: prepared.balance, keyId: batch.keyId, mark });
      if (credits > left)
        throw new AppError('conflict', tooDear(credits, balanceWords(prepared.balance, left)));
    }
    const overCap = capRefusal(billingOf(plan.request, credits, { store, brands, services }), credits);
    if (overCap) throw new AppError('refused', overCap);
  };

  return {
    /** What the batch will cost, as New batch shows it; `fresh` asks the balance again (an agent's quote). */
    async quote(request: QuoteRequest, products: NewProduct[], fresh = false): Promise<QuoteView> {
      const { quote, balance, promised, setAside, reach, later, billing } = await quoteFor(
        request,
        products,
        fresh ? 'fresh' : 'preview',
      );
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
        prices: { shoot: quote.shoot.breakdown, video: later ? videoPrice(later) : quote.video },
        balance,
        promised,
        shortfall: quote.shortfall ?? 0,
        setAside,
        photos: reach,
        videoLaterCredits: later ? quoteVideo(later) : null,
        caps: billing.caps,
        attributionWarning: billing.attributionWarning,
        recipeAdvice: qualityAdvice(
          ctx.exportRecords.recentRecipes(billing.brandId),
          request.shoot.quality,
          request.shoot.aspectRatio,
        ),
      };
    },

    /** Everything that can refuse the batch, asked of the service now: nothing is written. */
    async prepare(plan: BatchPlan): Promise<PreparedBatch> {
      const { request } = plan;
      const mark = store.jobs.mark();
      const { fresh, quote, balance, promised, shoot, video, later, sandbox, baseUrl, billing } =
        await quoteFor(request, plan.products, 'create');
      if (fresh.length === 0) {
        throw new AppError('conflict', 'Every product was already shot with these photos and settings.');
      }
      if (quote.shortfall) {
        throw new AppError('conflict', tooDear(quote.credits, balanceWords(balance, balance - promised)));
      }
      const overCap = capRefusal(billing, quote.credits);
      if (overCap) throw new AppError('refused', overCap);
      const { keyId, keyHint } = await services.keyedClient(request.accountId);
      return {
        plan,
        mark,
        credits: quote.credits,
        balance,
        batch: {
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
        },
      };
    },

    /**
     * Checks again what `prepare` checked, against the database as it is now, and writes the batch's rows,
     * with the caller's check and writes, in one spending decision: a batch made meanwhile (by another
     * window, process or agent) that shoots one of these products with these photos and settings, the
     * balance less what was committed meanwhile, and the caps each refuse it.
     */
    commit(prepared: PreparedBatch, also: CommitAlso = {}): Batch {
      const batch = decideSpending(store, () => {
        also.check?.();
        refuseWhatChangedMeanwhile(prepared);
        const made = store.createBatch({ ...prepared.batch, agentClient: also.agentClient ?? null });
        also.record?.(made);
        return made;
      });
      services.forgetBalance(prepared.plan.request.accountId);
      log.info(
        `batch ${batch.id} created: ${prepared.batch.products.length} products, ${prepared.credits} credits${
          also.agentClient ? ` (for ${also.agentClient})` : ''
        }`,
      );
      return batch;
    },

    /**
     * Hands a committed batch to the queue, says so, and backs the database up (db/backups.ts): the copy a
     * damaged database is restored from, taken as the batch starts, with the batch in it. A backup that
     * fails is said in the log; the batch goes on.
     */
    async start(batch: Batch): Promise<void> {
      await queue.drive(batch);
      events.emit('batches:changed', { id: batch.id });
      await ctx.backups
        .take()
        .catch((error: unknown) => log.error('the database could not be backed up', error));
    },
  };
}

export type BatchMaker = ReturnType<typeof batchMaker>;
