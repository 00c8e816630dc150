import { join } from 'node:path';
import type { JobState } from '../../shared/vocabulary.ts';
import type { VideoBody } from '../api/index.ts';
import { refusalWords } from '../app/fs-refusal.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Asset, Batch, Photo, VideoSettings } from '../queue/types.ts';
import { checkLink, type LinkCheck } from './link-check.ts';
import type { HostingProgress, PhotoHost } from './photo-host.ts';
import { NoWorkingLink, type WorkingLinks, workingLinks } from './served-copies.ts';

// The first stage of the pipeline: a batch's local photos are made reachable by URL before any of its jobs
// is sent, and a batch whose photos cannot be reached is paused for the user before a credit is spent.

/** States of a sent job whose service may still fetch its inputs. */
const STILL_FETCHING: ReadonlySet<JobState> = new Set(['submitting', 'outcome_unknown', 'running', 'stale']);

/** A photo could not be given a URL the service can fetch (storage missing, refusing, unreachable). */
export class PhotoUnreachable extends Error {}

export interface PhotoPreparationOptions {
  store: QueueStore;
  /**
   * Where this batch's local photos are served from. Throws, saying why, when nothing can serve them (no
   * storage set up for a remote service): the batch is then paused for the user, not failed.
   */
  hostFor: (batch: Batch) => PhotoHost;
  onProgress?: (batchId: string, progress: HostingProgress) => void;
  onNotice?: (batchId: string, message: string) => void;
  onChange?: (batchId: string) => void;
  /** Whether a result URL still answers (default: `checkLink`, a GET of its first byte). */
  checkLink?: LinkCheck;
}

export class PhotoPreparation {
  /** Batches whose photos were all made reachable by this run. */
  private readonly prepared = new Set<string>();

  constructor(private readonly options: PhotoPreparationOptions) {}

  isPrepared(batchId: string): boolean {
    return this.prepared.has(batchId);
  }

  /**
   * Makes these batches' local photos reachable. A host that serves from this process is told every photo
   * again after a restart, since jobs created before it may still be fetching theirs; storage keeps what it
   * was sent, so only the photos of shoots not yet sent are checked (a photo is hashed and looked up for
   * that, which is not worth repeating at every start for a batch mostly done).
   */
  async prepare(batchIds: readonly string[]): Promise<void> {
    const { store } = this.options;
    for (const batchId of batchIds) {
      const batch = store.batches.get(batchId);
      // A batch paused for its photos waits for the user to fix the storage and resume it.
      if (!batch || (batch.status === 'paused' && batch.statusReason === 'hosting')) continue;
      const products = store.batches
        .products(batchId)
        .filter((product) => product.photos.some((p) => p.path));
      const served = this.servedFilesInUse(batch);
      try {
        if (products.length > 0 || served.length > 0) {
          const host = this.options.hostFor(batch);
          const unsent = host.persistent ? this.unsentShootProducts(batchId) : null;
          const paths = new Set<string>();
          for (const product of products) {
            if (unsent && !unsent.has(product.id)) continue;
            for (const photo of product.photos) if (photo.path) paths.add(photo.path);
          }
          if (!host.persistent) for (const file of served) paths.add(file);
          await host.prepare([...paths], (progress) => this.options.onProgress?.(batchId, progress));
        }
        this.prepared.add(batchId);
      } catch (error) {
        this.pause(batchId, refusalWords(error));
      }
    }
  }

  /**
   * The files a sent video may still be fetching from a host in this process: its shots sent as served
   * copies (those whose own URL is not in the body it sent) and its logo file. After a restart the host
   * must serve them again, at the same URLs, as it does the photos.
   */
  private servedFilesInUse(batch: Batch): string[] {
    const { store } = this.options;
    const files: string[] = [];
    for (const job of store.jobs.ofBatch(batch.id)) {
      if (job.kind !== 'video' || !job.request || !STILL_FETCHING.has(job.state)) continue;
      const settings = job.settings as VideoSettings;
      if (settings.logoFile) files.push(settings.logoFile);
      const sent = new Set((job.request as Partial<VideoBody>).imageUrls ?? []);
      for (const shot of store.assets.ofJob(job.afterJobId!)) {
        if (shot.kind === 'image' && shot.state === 'done' && !sent.has(shot.url))
          files.push(join(batch.libraryDir, shot.path));
      }
    }
    return files;
  }

  /** The products whose shoot is not sent yet: storage holds the photos of the others already. */
  private unsentShootProducts(batchId: string): Set<string> {
    return new Set(
      this.options.store.jobs
        .ofBatch(batchId)
        .filter((job) => job.kind === 'shoot' && job.state === 'waiting')
        .map((job) => job.productId),
    );
  }

  /** The URLs the service fetches these photos from; throws `PhotoUnreachable` when one cannot be served. */
  async urlsFor(batchId: string, photos: readonly Photo[]): Promise<string[]> {
    try {
      const host = photos.some((photo) => !photo.url)
        ? this.options.hostFor(this.options.store.batches.get(batchId)!)
        : null;
      return await Promise.all(photos.map((photo) => photo.url ?? host!.urlFor(photo.path!)));
    } catch (error) {
      throw new PhotoUnreachable(refusalWords(error));
    }
  }

  /**
   * The URLs a video is made from: each shot's own where it answers, else its downloaded copy served by the
   * batch's host (`served-copies.ts`). Throws `NoWorkingLink` when a shot has neither, `PhotoUnreachable`
   * when the host cannot take a file now.
   */
  async workingLinks(batchId: string, shots: readonly Asset[]): Promise<WorkingLinks> {
    const batch = this.options.store.batches.get(batchId)!;
    try {
      return await workingLinks(batch, shots, {
        check: this.options.checkLink ?? ((url) => checkLink(url)),
        hostFor: this.options.hostFor,
      });
    } catch (error) {
      // A host that cannot take a file now (storage failing) pauses the batch, as for its photos.
      if (error instanceof NoWorkingLink) throw error;
      throw new PhotoUnreachable(refusalWords(error));
    }
  }

  /** Nothing is sent for a batch whose photos the service could not fetch: it would pay for failures. */
  pause(batchId: string, message: string): void {
    const { store } = this.options;
    this.prepared.delete(batchId);
    const batch = store.batches.get(batchId);
    if (batch && (batch.status === 'running' || batch.status === 'paused')) {
      store.batches.setStatus(batch.id, 'paused', 'hosting', message);
    }
    this.options.onNotice?.(batchId, `Paused: ${message}`);
    this.options.onChange?.(batchId);
  }
}
