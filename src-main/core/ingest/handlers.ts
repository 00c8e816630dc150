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
import { ownContentOf } from './own-content.ts';
import { scanInputs } from './scan.ts';
import type { ScanHolder } from './scan-holder.ts';
import { scannedProductView, scanView } from './views.ts';

// Ingest: folders, photos and catalogs to products and problems, held for the quote and the batch.

const PROGRESS_INTERVAL_MS = 100;

/** How a cancelled scan is refused: front ends tell it from a failure by this sentence's code and words. */
const SCAN_CANCELLED = 'The scan was cancelled: nothing was planned.';

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
  /** The scans under way that a front end named, each stopped by its controller. */
  const running = new Map<string, AbortController>();
  return {
    'dialog:open': async () => ctx.openDialog(),
    'ingest:scan': async ({ inputs, pattern, subfolders, scanToken }) => {
      if (scanToken !== undefined && running.has(scanToken))
        throw new AppError(
          'conflict',
          'A scan with this token is already under way: give each scan its own.',
        );
      // Named from the start, so that a cancel sent while the library is made still stops the scan.
      const controller = new AbortController();
      if (scanToken !== undefined) running.set(scanToken, controller);
      // Each event names its scan: two scans at once (a folder dropped while another is read) would else
      // show each other's counts.
      let latest = { checked: 0, total: 0 };
      const tick = throttlePerKey(PROGRESS_INTERVAL_MS, () =>
        events.emit('ingest:progress', { scanToken: scanToken ?? null, ...latest }),
      );
      const { libraryDir } = ctx.settings();
      const plan = await (async () => {
        // The scan's cache goes in the library: a library it makes is Adbatch's, marked as made.
        await makeOwnFolder(libraryDir, 'library');
        return scanInputs(inputs, {
          signal: controller.signal,
          cacheDir: ingestCacheDir(libraryDir),
          pattern,
          subfolders,
          outbound: ctx.outbound(),
          adbatch: await AdbatchFolders.of(adbatchPaths(ctx)),
          ownContent: ownContentOf(ctx.store.batches, ctx.store.assets, ctx.exportRecords),
          onProgress: (progress) => {
            latest = progress;
            tick.touch('scan');
          },
        });
      })().finally(() => {
        if (scanToken !== undefined) running.delete(scanToken);
      });
      tick.flush();
      const scanId = scans.hold(plan);
      return scanView(scanId, plan, files, (product) => scans.isLeftOut(product));
    },
    'ingest:cancelScan': async ({ scanToken }) => {
      running.get(scanToken)?.abort(new AppError('refused', SCAN_CANCELLED));
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
