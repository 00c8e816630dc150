import type { reshootChannels } from '../../shared/contract/review.ts';
import { counted } from '../../shared/counted.ts';
import type { ReshootQuote, ReshootRequest } from '../../shared/models.ts';
import { allRejectedProducts } from '../../shared/reshoot.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { quoteShoot } from '../pricing.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { ProductId } from '../queue/ids.ts';
import type { NewJob } from '../queue/job-store.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, ShootSettings } from '../queue/types.ts';
import { addToBatch, againstBalance } from './batch-additions.ts';
import type { ReviewRow, ReviewStore } from './review-store.ts';

// A reshoot (issue 12, point 7): products whose shots are all rejected, shot again with other settings in
// the same batch. Quoted first, per product and in all, against the balance of the batch's key, to the
// credit; then one shoot per product is added to the batch (`batch-additions.ts`), whose results join the
// product's in Review.
//
// Which products: by default every product whose shots are all rejected. A product named that is not all
// rejected is refused, not shot: the designer reached "shoot again" by rejecting every shot in Review, and a
// name mistyped in `--products` must not spend credits on a product that still has a shot to keep. A product
// whose shoot has not ended (a reshoot on its way, or one waiting for a word) is not shot again either: its
// shots may still come, and a second create (a double click, a retry after a crash that had committed the
// first) must not pay twice.

function beingShot(names: readonly string[]): string {
  return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} being shot already: the new shots join Review as they land.`;
}

interface Plan {
  quote: ReshootQuote;
  shoots: Array<Omit<NewJob, 'batchId'>>;
}

export function reshootHandlers(
  ctx: AppContext & { review: ReviewStore; store: QueueStore; services: ServiceAccess; queue: QueueDriver },
): HandlersOf<typeof reshootChannels> {
  const { store, review, services } = ctx;

  const plan = async (batch: Batch, request: ReshootRequest, fresh: boolean): Promise<Plan> => {
    const products = store.batches.products(batch.id);
    const byId = new Map(products.map((product) => [product.id as string, product]));
    const rows = review.items(batch.id);
    // Each product's shots, grouped once: a batch of 2,000 products must not be scanned once per product.
    const shotsOf = new Map<string, ReviewRow[]>();
    for (const row of rows) {
      if (row.kind !== 'shot') continue;
      const shots = shotsOf.get(row.productId);
      if (shots) shots.push(row);
      else shotsOf.set(row.productId, [row]);
    }
    const allRejected = new Set(allRejectedProducts(rows));
    const underwayIds = store.jobs.unendedShoots([...allRejected]);
    if (request.productIds) {
      for (const id of request.productIds) {
        const product = byId.get(id);
        if (!product) throw new AppError('not_found', `Batch ${batch.id} has no product ${id}.`);
        const shots = shotsOf.get(id) ?? [];
        if (shots.length === 0) {
          throw new AppError(
            'conflict',
            `${product.name} has no shot to review yet: a reshoot is for products whose shots are all rejected.`,
          );
        }
        if (!allRejected.has(id)) {
          const kept = shots.filter((row) => row.flag !== 'rejected').length;
          throw new AppError(
            'conflict',
            `${product.name} still has ${kept} shot${kept === 1 ? '' : 's'} not rejected: reject ${kept === 1 ? 'it' : 'them'} first to shoot it again.`,
          );
        }
        if (underwayIds.has(product.id)) {
          throw new AppError(
            'conflict',
            `${product.name} is being shot already: its new shots join Review as they land.`,
          );
        }
      }
    }
    const wanted = new Set(request.productIds ?? allRejected);
    const chosen = products.filter((product) => wanted.has(product.id) && !underwayIds.has(product.id));
    const settings = request.shoot as ShootSettings;
    const price = quoteShoot(settings);
    const quoted: ReshootQuote['products'] = chosen.map((product) => ({
      productId: product.id,
      productName: product.name,
      rejected: shotsOf.get(product.id)?.length ?? 0,
      shots: price.shots,
      clamped: price.clamped,
      credits: price.credits,
    }));
    const underway = products
      .filter((product) => underwayIds.has(product.id))
      .map((product) => ({ productId: product.id, productName: product.name }));
    const credits = price.credits * chosen.length;
    return {
      quote: {
        accountId: batch.accountId,
        products: quoted,
        underway,
        price: price.breakdown,
        ...(await againstBalance(services, batch, credits, fresh)),
      },
      shoots: chosen.map((product) => ({
        productId: product.id,
        kind: 'shoot',
        afterJobId: null,
        settings,
        price: price.credits,
      })),
    };
  };

  return {
    'reshoot:quote': async (request) =>
      (await plan(requireBatch(store, request.batchId), request, false)).quote,
    'reshoot:create': (request) =>
      addToBatch(
        ctx,
        request.batchId,
        async (batch) => {
          const { quote, shoots } = await plan(batch, request, true);
          return {
            quote,
            jobs: shoots,
            nothing:
              quote.underway.length > 0
                ? beingShot(quote.underway.map((product) => product.productName))
                : 'No product has all its shots rejected: reject every shot of a product to shoot it again.',
            // In the spending decision, after the balance's answer (an await): of two creates at once, in
            // one process or two, the second sees the first's shoots waiting.
            recheck: () => {
              const meanwhile = store.jobs.unendedShoots(shoots.map((shoot) => shoot.productId));
              if (meanwhile.size > 0) {
                const names = quote.products.filter((row) => meanwhile.has(row.productId as ProductId));
                throw new AppError('conflict', beingShot(names.map((row) => row.productName)));
              }
            },
          };
        },
        (quote, balanceSaid) =>
          `This reshoot costs ${counted(quote.credits, 'credit')}; ${balanceSaid}. Top up or shoot fewer.`,
      ),
  };
}
