import type { ingestChannels } from '../../shared/contract/ingest.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import { throttlePerKey } from '../app/events.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { ExportRecords } from '../export/export-records.ts';
import { makeOwnFolder } from '../folder-marks.ts';
import { ingestCacheDir } from '../library.ts';
import type { QueueStore } from '../queue/store.ts';
import { AdbatchFolders, type AdbatchPath } from './adbatch-folders.ts';
import { scanInputs } from './scan.ts';
import type { ScanHolder } from './scan-holder.ts';
import { scannedProductView, scanView } from './views.ts';

// Ingest: folders, photos and catalogs to products and problems, held for the quote and the batch.

const PROGRESS_INTERVAL_MS = 100;

export interface IngestDeps extends AppContext {
  scans: ScanHolder;
  store: QueueStore;
  exportRecords: ExportRecords;
}

/** What Adbatch wrote, by path: the library and every batch's, the data folder, what exports placed. */
function adbatchPaths(ctx: IngestDeps): AdbatchPath[] {
  const libraries = new Set([ctx.settings().libraryDir, ...ctx.store.batches.libraryDirs()]);
  return [
    ...[...libraries].map((path) => ({ path, kind: 'library' as const })),
    { path: ctx.dataDir, kind: 'data' },
    ...ctx.exportRecords.placedAtTop().map((path) => ({ path, kind: 'export' as const })),
  ];
}

export function ingestHandlers(ctx: IngestDeps): HandlersOf<typeof ingestChannels> {
  const { events, files, scans } = ctx;
  /** The scans under way, each stopped by its controller. */
  const running = new Set<AbortController>();
  return {
    'dialog:open': async () => ctx.openDialog(),
    'ingest:scan': async ({ inputs, pattern, subfolders }) => {
      let latest = { checked: 0, total: 0 };
      const tick = throttlePerKey(PROGRESS_INTERVAL_MS, () => events.emit('ingest:progress', latest));
      const { libraryDir } = ctx.settings();
      // The scan's cache goes in the library: a library it makes is Adbatch's, marked as made.
      await makeOwnFolder(libraryDir, 'library');
      const controller = new AbortController();
      running.add(controller);
      const plan = await scanInputs(inputs, {
        signal: controller.signal,
        cacheDir: ingestCacheDir(libraryDir),
        pattern,
        subfolders,
        outbound: ctx.outbound(),
        adbatch: await AdbatchFolders.of(adbatchPaths(ctx)),
        onProgress: (progress) => {
          latest = progress;
          tick.touch('scan');
        },
      }).finally(() => running.delete(controller));
      tick.flush();
      const scanId = scans.hold(plan);
      return scanView(scanId, plan, files, (product) => scans.isLeftOut(product));
    },
    'ingest:cancelScan': async () => {
      for (const controller of running) {
        controller.abort(new AppError('refused', 'The scan was cancelled: nothing was planned.'));
      }
      return null;
    },
    'ingest:hero': async ({ scanId, product: name, photo }) =>
      scannedProductView(scans.chooseHero(scanId, name, photo), files, false),
    'ingest:leaveOut': async ({ scanId, product: name, out }) => {
      scans.leaveOut(scanId, name, out);
      return null;
    },
  };
}
