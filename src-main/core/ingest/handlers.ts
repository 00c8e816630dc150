import type { ingestChannels } from '../../shared/contract/ingest.ts';
import type { AppContext } from '../app/context.ts';
import { throttlePerKey } from '../app/events.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { ingestCacheDir } from '../library.ts';
import { scanInputs } from './scan.ts';
import type { ScanHolder } from './scan-holder.ts';
import { scannedProductView, scanView } from './views.ts';

// Ingest: folders, photos and catalogs to products and problems, held for the quote and the batch.

const PROGRESS_INTERVAL_MS = 100;

export function ingestHandlers(ctx: AppContext & { scans: ScanHolder }): HandlersOf<typeof ingestChannels> {
  const { events, files, scans } = ctx;
  return {
    'dialog:open': async () => ctx.openDialog(),
    'ingest:scan': async ({ inputs, pattern, subfolders }) => {
      let latest = { checked: 0, total: 0 };
      const tick = throttlePerKey(PROGRESS_INTERVAL_MS, () => events.emit('ingest:progress', latest));
      const plan = await scanInputs(inputs, {
        cacheDir: ingestCacheDir(ctx.settings().libraryDir),
        pattern,
        subfolders,
        onProgress: (progress) => {
          latest = progress;
          tick.touch('scan');
        },
      });
      tick.flush();
      const scanId = scans.hold(plan);
      return scanView(scanId, plan, files, (product) => scans.isLeftOut(product));
    },
    'ingest:hero': async ({ scanId, product: name, photo }) =>
      scannedProductView(scans.chooseHero(scanId, name, photo), files, false),
    'ingest:leaveOut': async ({ scanId, product: name, out }) => {
      scans.leaveOut(scanId, name, out);
      return null;
    },
  };
}
