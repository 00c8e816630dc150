import type { videosChannels } from '../../shared/contract/review.ts';
import { counted } from '../../shared/counted.ts';
import type { PickedVideoQuote, PickedVideosRequest } from '../../shared/models.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { VIDEO_MAX_IMAGES } from '../catalog.ts';
import type { PhotoReachService } from '../hosting/photo-reach.ts';
import { videoPrice } from '../pricing.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { NewJob } from '../queue/job-store.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, VideoSettings } from '../queue/types.ts';
import { addToBatch, againstBalance } from './batch-additions.ts';
import { checkLogoFile, keepLogoFile, LogoRefused } from './logo-files.ts';
import type { ReviewStore } from './review-store.ts';

// Videos from the picks: per product, the shots the designer picked, in the order they set (or in shot
// order), as many as the video's length takes. Quoted first, against the balance, to the credit; then
// queued in the batch as one video per product, after its shoot (`batch-additions.ts`).

interface Plan {
  quote: PickedVideoQuote;
  videos: Array<Omit<NewJob, 'batchId'>>;
}

export function videosHandlers(
  ctx: AppContext & {
    review: ReviewStore;
    store: QueueStore;
    services: ServiceAccess;
    queue: QueueDriver;
    photos: PhotoReachService;
  },
): HandlersOf<typeof videosChannels> {
  const { store, review, services } = ctx;

  /**
   * A logo file checked (for a quote) or checked and kept in the data folder (to make the videos): its
   * copy's path, served to the service by the batch's photo host when each video is posted.
   */
  const logoOf = async (batch: Batch, file: string, keep: boolean): Promise<string | null> => {
    if (ctx.photos.reachOf(batch.sandbox, batch.baseUrl).kind === 'missing') {
      throw new AppError(
        'conflict',
        "The service cannot read files on this computer, so it cannot fetch a logo file: set up photo storage in Settings, or give the logo's URL.",
      );
    }
    try {
      if (keep) return await keepLogoFile(ctx.dataDir, file);
      await checkLogoFile(file);
      return null;
    } catch (error) {
      if (error instanceof LogoRefused) throw new AppError('bad_request', error.message);
      throw error;
    }
  };

  const plan = async (batch: Batch, request: PickedVideosRequest, fresh: boolean): Promise<Plan> => {
    const picked = review.items(batch.id).filter((row) => row.kind === 'shot' && row.flag === 'picked');
    const byProduct = new Map<string, typeof picked>();
    for (const row of picked) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row]);
    const { logoUrl, logoFile, music, note, ...view } = request.video;
    const keptLogo = logoFile ? await logoOf(batch, logoFile, fresh) : null;
    const price = videoPrice(view);
    const products: PickedVideoQuote['products'] = [];
    const videos: Plan['videos'] = [];
    for (const product of store.batches.products(batch.id)) {
      const rows = byProduct.get(product.id) ?? [];
      const order = request.order?.[product.id];
      if (order?.some((id) => !rows.some((row) => row.assetId === id))) {
        throw new AppError(
          'bad_request',
          `The order for ${product.name} names a shot that is not one of its picks.`,
        );
      }
      const ordered = order ? order.map((id) => rows.find((row) => row.assetId === id)!) : rows;
      // One video is made from one shoot's shots (guess: the shoot of the first pick; a reshoot's picks go
      // in a video of their own).
      const fromShoot = ordered.filter((row) => row.jobId === ordered[0]?.jobId);
      const used = fromShoot.slice(0, VIDEO_MAX_IMAGES[view.duration]);
      const settings: VideoSettings = {
        ...view,
        images: used.map((row) => row.assetId),
        ...(logoUrl ? { logoUrl } : {}),
        ...(keptLogo ? { logoFile: keptLogo } : {}),
        ...(music !== undefined ? { music } : {}),
        ...(note ? { note } : {}),
      };
      const credits = used.length > 0 ? price.credits : 0;
      products.push({
        productId: product.id,
        productName: product.name,
        picks: ordered.map((row) => row.assetId),
        used: used.map((row) => row.assetId),
        credits,
      });
      if (used.length > 0) {
        videos.push({
          productId: product.id,
          kind: 'video',
          afterJobId: used[0]!.jobId,
          settings,
          price: credits,
        });
      }
    }
    const credits = products.reduce((sum, product) => sum + product.credits, 0);
    return { quote: { products, price, ...(await againstBalance(services, batch, credits, fresh)) }, videos };
  };

  return {
    'videos:quote': async (request) =>
      (await plan(requireBatch(store, request.batchId), request, false)).quote,
    // The logo's "Choose file…": the path is checked by the quote the dialog asks for next.
    'dialog:openImage': () => ctx.openImageDialog(),
    'videos:create': (request) =>
      addToBatch(
        ctx,
        request.batchId,
        async (batch) => {
          const { quote, videos } = await plan(batch, request, true);
          return {
            quote,
            jobs: videos,
            nothing: 'No product has a picked shot: pick shots first.',
            // Of two creates at once (a double click, the app and an agent), in one process or two, the
            // second sees the first's videos, added while it awaited the balance, and is refused.
            recheck: (mark) => {
              const wanted = new Set(videos.map((video) => video.productId as string));
              const meanwhile = store.jobs
                .committedSince(mark)
                .filter(
                  (job) => job.batchId === batch.id && job.kind === 'video' && wanted.has(job.productId),
                );
              if (meanwhile.length > 0) {
                const names = [...new Set(meanwhile.map((job) => job.productName))];
                throw new AppError(
                  'conflict',
                  `Videos of ${names.join(', ')} were added to this batch meanwhile: nothing was added twice.`,
                );
              }
            },
          };
        },
        (quote, balanceSaid) =>
          `These videos cost ${counted(quote.credits, 'credit')}; ${balanceSaid}. Top up or make fewer.`,
      ),
  };
}
