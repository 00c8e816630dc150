import type { ShootBody, VideoBody } from '../api/index.ts';
import { VIDEO_MAX_IMAGES } from '../catalog.ts';
import type { PhotoPreparation } from '../hosting/prepare-photos.ts';
import { MAX_PHOTOS_PER_PRODUCT } from '../ingest/limits.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Job, ShootSettings, VideoSettings } from '../queue/types.ts';

// The exact body of a job's create, committed as its intent before the POST: a shoot is made from its
// product's photos (as many as the service takes, served by the batch's host), a video from the shots of
// its product's shoot.

/** The body of a shoot's or a video's create; rejects with `PhotoUnreachable` when a photo cannot be served. */
export async function createBody(
  job: Job,
  store: QueueStore,
  photos: PhotoPreparation,
): Promise<ShootBody | VideoBody> {
  if (job.kind === 'shoot') {
    const settings = job.settings as ShootSettings;
    const product = store.batches.product(job.productId)!;
    const productImageUrls = await photos.urlsFor(
      job.batchId,
      product.photos.slice(0, MAX_PHOTOS_PER_PRODUCT),
    );
    return {
      productImageUrls,
      style: settings.style,
      mode: settings.mode,
      ...(settings.modelUrl ? { modelUrl: settings.modelUrl } : {}),
      shots: settings.shots,
      aspectRatio: settings.aspectRatio,
      quality: settings.quality,
      ...(settings.backgroundColor ? { backgroundColor: settings.backgroundColor } : {}),
    };
  }
  const settings = job.settings as VideoSettings;
  const shots = store.assets.ofJob(job.afterJobId!).filter((asset) => asset.kind === 'image');
  // Videos from the picks name their shots, in the user's order; the automatic ones take the first shots.
  const chosen = settings.images
    ? settings.images
        .map((id) => shots.find((asset) => asset.id === id))
        .filter((asset) => asset !== undefined)
    : shots;
  return {
    imageUrls: chosen.slice(0, VIDEO_MAX_IMAGES[settings.duration]).map((asset) => asset.url),
    duration: settings.duration,
    resolution: settings.resolution,
    mode: settings.mode,
    ...(settings.aspectRatio ? { aspectRatio: settings.aspectRatio } : {}),
    ...(settings.logoUrl ? { logoUrl: settings.logoUrl } : {}),
    ...(settings.music !== undefined ? { music: settings.music } : {}),
    ...(settings.note ? { note: settings.note } : {}),
  };
}
