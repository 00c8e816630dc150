import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sqliteFaultOf } from '../db/data-folder-fault.ts';
import type { PendingAsset } from '../queue/asset-store.ts';
import type { QueueStore } from '../queue/store.ts';
import type { ResultPreviews } from '../review/previews.ts';
import { type LocalFault, localFaultOf } from '../util/local-fault.ts';
import { DownloadError, downloadVerified } from './download.ts';
import { libraryFault, markBatchFolder, markResultFolders } from './library-check.ts';

// The last stage of the pipeline: every result of a completed job lands on disk, verified, a few at a time,
// outside the request budget (result URLs need no key). A transient failure is tried again with a backoff,
// up to DOWNLOAD_ATTEMPTS; a result that will never come fails its job (the store decides, per job). A
// result this computer could not write (a full disk, a library gone) is no attempt at all: it is reported
// (the engine pauses its batch) and stays owed.

const DOWNLOAD_ATTEMPTS = 6;
/** How long a result waits after a local fault, should its batch not be paused (a cancelled batch). */
const LOCAL_FAULT_WAIT_MS = 5_000;

export interface DownloadPumpOptions {
  store: QueueStore;
  now: () => number;
  /** Downloads at a time (default 4). */
  concurrency?: number;
  /** Multiplies the retry backoff of a batch's results (a sandbox batch's run faster than real time). */
  timeScaleOf?: (batchId: string) => number;
  /**
   * Makes a downloaded shot's or video's previews for Review, in the background: the result is recorded as verified
   * first, and a preview that cannot be made never fails it (Review makes it again on demand).
   */
  previews?: Pick<ResultPreviews, 'ensure'>;
  /** A download ended, done or not: its batch changed, and the pump may have room again. */
  onSettled: (batchId: string) => void;
  /** A result could not be written for a reason on this computer; it stays owed. */
  onLocalFault: (asset: PendingAsset, fault: LocalFault) => void;
  /** What the pump could not record (the database could not be written). */
  onInternalError: (error: Error) => void;
}

export class DownloadPump {
  private readonly downloading = new Set<number>();
  private readonly retryAt = new Map<number, number>();
  /** Batch folders and folders of results marked by this pump (`markOnce`). */
  private readonly marked = new Set<string>();

  constructor(private readonly options: DownloadPumpOptions) {}

  /** Downloads under way. */
  get active(): number {
    return this.downloading.size;
  }

  /** Starts downloads of these batches up to the concurrency; returns when a waiting retry is due. */
  pump(batchIds: readonly string[], now: number): number {
    const concurrency = this.options.concurrency ?? 4;
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const asset of this.options.store.assets.pending(batchIds)) {
      if (this.downloading.size >= concurrency) break;
      if (this.downloading.has(asset.id)) continue;
      const retryAt = this.retryAt.get(asset.id) ?? 0;
      if (retryAt > now) {
        wakeAt = Math.min(wakeAt, retryAt);
        continue;
      }
      this.downloading.add(asset.id);
      this.download(asset)
        .catch((error: unknown) => this.options.onInternalError(error as Error))
        .finally(() => {
          this.downloading.delete(asset.id);
          this.options.onSettled(asset.batchId);
        });
    }
    return wakeAt;
  }

  private async download(asset: PendingAsset): Promise<void> {
    const { store } = this.options;
    const file = join(asset.libraryDir, asset.path);
    const batchDir = asset.path.split('/')[0]!;
    const misplaced = await libraryFault(asset.libraryDir, batchDir, store.assets.anySaved(asset.batchId));
    if (misplaced) {
      this.waitAfterLocalFault(asset);
      this.options.onLocalFault(asset, misplaced);
      return;
    }
    try {
      await this.markOnce(asset.libraryDir, batchDir, dirname(file));
      const result = await downloadVerified(asset.url, file, asset.kind === 'video' ? 'video' : 'image', {
        root: join(asset.libraryDir, batchDir),
      });
      store.assets.downloaded(asset.id, result.bytes, result.sha256);
      this.retryAt.delete(asset.id);
      // A video's previews are of its poster frame (review/video-frame.ts); a thumbnail needs none.
      if (asset.kind !== 'thumbnail') void this.options.previews?.ensure(file, result.sha256, asset.kind);
    } catch (error) {
      // The database could not record the result: that is the data folder's fault, for the engine.
      if (sqliteFaultOf(error)) throw error;
      const local = error instanceof DownloadError ? null : localFaultOf(error);
      // A folder gone while the download ran: which one (the library, or the batch's folder in it).
      const fault =
        local?.kind === 'gone' ? ((await libraryFault(asset.libraryDir, batchDir, true)) ?? local) : local;
      if (fault) {
        this.waitAfterLocalFault(asset);
        this.options.onLocalFault(asset, fault);
        return;
      }
      const transient = error instanceof DownloadError ? error.transient : false;
      const permanent = !transient || asset.attempts + 1 >= DOWNLOAD_ATTEMPTS;
      // A result given up on leaves no partial file behind; Download again starts it afresh.
      if (permanent) await rm(`${file}.part`, { force: true }).catch(() => {});
      store.assets.failed(asset.id, (error as Error).message, permanent);
      const scale = this.options.timeScaleOf?.(asset.batchId) ?? 1;
      this.retryAt.set(asset.id, this.options.now() + 500 * 2 ** asset.attempts * scale);
    }
  }

  /**
   * The batch's folder, and the folders in it the result goes in, marked as Adbatch's own before the first
   * result of this run is written in them.
   */
  private async markOnce(libraryDir: string, batchDir: string, resultDir: string): Promise<void> {
    const folder = join(libraryDir, batchDir);
    if (!this.marked.has(folder)) {
      await markBatchFolder(libraryDir, batchDir);
      this.marked.add(folder);
    }
    if (this.marked.has(resultDir)) return;
    await markResultFolders(folder, resultDir);
    this.marked.add(resultDir);
  }

  private waitAfterLocalFault(asset: PendingAsset): void {
    const scale = this.options.timeScaleOf?.(asset.batchId) ?? 1;
    this.retryAt.set(asset.id, this.options.now() + LOCAL_FAULT_WAIT_MS * scale);
  }
}
