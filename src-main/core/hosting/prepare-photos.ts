import type { QueueStore } from '../queue/store.ts';
import type { Batch, Photo } from '../queue/types.ts';
import type { HostingProgress, PhotoHost } from './photo-host.ts';

// The first stage of the pipeline: a batch's local photos are made reachable by URL before any of its jobs
// is sent, and a batch whose photos cannot be reached is paused for the user before a credit is spent.

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
      try {
        if (products.length > 0) {
          const host = this.options.hostFor(batch);
          const unsent = host.persistent ? this.unsentShootProducts(batchId) : null;
          const paths = new Set<string>();
          for (const product of products) {
            if (unsent && !unsent.has(product.id)) continue;
            for (const photo of product.photos) if (photo.path) paths.add(photo.path);
          }
          await host.prepare([...paths], (progress) => this.options.onProgress?.(batchId, progress));
        }
        this.prepared.add(batchId);
      } catch (error) {
        this.pause(batchId, (error as Error).message);
      }
    }
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
      throw new PhotoUnreachable((error as Error).message);
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
