import { scanInputs, withHero } from '../ingest/scan.ts';
import { ingestCacheDir } from '../library.ts';
import type { CoreContext } from './context.ts';
import type { HandlerMap } from './dispatch.ts';
import { AppError } from './errors.ts';
import { throttlePerKey } from './events.ts';
import { scannedProductView, scanView } from './views.ts';

// Ingest: folders, photos and catalogs to products and problems, held for the quote and the batch.

const PROGRESS_INTERVAL_MS = 100;

export function ingestHandlers(
  ctx: CoreContext,
): Pick<HandlerMap, 'dialog:open' | 'ingest:scan' | 'ingest:hero'> {
  const { events, files, scans } = ctx;
  return {
    'dialog:open': async () => ctx.openDialog(),
    'ingest:scan': async ({ inputs, pattern }) => {
      let latest = { checked: 0, total: 0 };
      const tick = throttlePerKey(PROGRESS_INTERVAL_MS, () => events.emit('ingest:progress', latest));
      const plan = await scanInputs(inputs, {
        cacheDir: ingestCacheDir(ctx.settings().libraryDir),
        pattern,
        onProgress: (progress) => {
          latest = progress;
          tick.touch('scan');
        },
      });
      tick.flush();
      return scanView(scans.hold(plan), plan, files);
    },
    'ingest:hero': async ({ scanId, product: name, photo }) => {
      const plan = scans.get(scanId);
      const index = plan.products.findIndex((product) => product.name === name);
      const product = plan.products[index];
      if (!product) throw new AppError('not_found', `This scan has no product "${name}".`);
      if (!product.photos[photo])
        throw new AppError('bad_request', `${name} has ${product.photos.length} photos, not ${photo + 1}.`);
      plan.products[index] = withHero(product, photo);
      return scannedProductView(plan.products[index]!, files);
    },
  };
}
