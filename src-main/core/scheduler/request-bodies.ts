import { stat } from 'node:fs/promises';
import type { ShootBody, VideoBody } from '../api/index.ts';
import { VIDEO_MAX_IMAGES } from '../catalog.ts';
import type { PhotoPreparation } from '../hosting/prepare-photos.ts';
import { NoWorkingLink, type ServedCopy } from '../hosting/served-copies.ts';
import { MAX_PHOTOS_PER_PRODUCT } from '../ingest/limits.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Job, ShootSettings, VideoSettings } from '../queue/types.ts';

// The exact body of a job's create, committed as its intent before the POST: a shoot is made from its
// product's photos (as many as the service takes, served by the batch's host), a video from the shots of
// its product's shoot, each by a URL that answered just now (its own, else its served copy), and its logo
// (a public URL, or a file served like the photos).

export interface CreateBody {
  body: ShootBody | VideoBody;
  /** A video's shots whose own URL did not answer, sent as served copies. */
  servedCopies: ServedCopy[];
  /** The body's addresses taken from input as given (catalog photos, a model image, a logo's address). */
  given: string[];
}

/**
 * The body of a shoot's or a video's create, built right before its intent is committed; rejects with
 * `PhotoUnreachable` when a photo cannot be served now (the batch pauses) and `NoWorkingLink` when a video's
 * input can be given no working URL at all (the job fails, nothing sent).
 */
export async function createBody(job: Job, store: QueueStore, photos: PhotoPreparation): Promise<CreateBody> {
  if (job.kind === 'shoot') {
    const settings = job.settings as ShootSettings;
    const product = store.batches.product(job.productId)!;
    const productImageUrls = await photos.urlsFor(
      job.batchId,
      product.photos.slice(0, MAX_PHOTOS_PER_PRODUCT),
    );
    return {
      body: {
        productImageUrls,
        style: settings.style,
        mode: settings.mode,
        ...(settings.modelUrl ? { modelUrl: settings.modelUrl } : {}),
        shots: settings.shots,
        aspectRatio: settings.aspectRatio,
        quality: settings.quality,
        ...(settings.backgroundColor ? { backgroundColor: settings.backgroundColor } : {}),
      },
      servedCopies: [],
      given: [
        ...product.photos.flatMap((photo) => (photo.url ? [photo.url] : [])),
        ...(settings.modelUrl ? [settings.modelUrl] : []),
      ],
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
  const links = await photos.workingLinks(job.batchId, chosen.slice(0, VIDEO_MAX_IMAGES[settings.duration]));
  const logoUrl = settings.logoFile ? await logoFileUrl(job, settings.logoFile, photos) : settings.logoUrl;
  return {
    body: {
      imageUrls: links.urls,
      duration: settings.duration,
      resolution: settings.resolution,
      mode: settings.mode,
      ...(settings.aspectRatio ? { aspectRatio: settings.aspectRatio } : {}),
      ...(logoUrl ? { logoUrl } : {}),
      ...(settings.music !== undefined ? { music: settings.music } : {}),
      ...(settings.note ? { note: settings.note } : {}),
    },
    servedCopies: links.served,
    given: !settings.logoFile && settings.logoUrl ? [settings.logoUrl] : [],
  };
}

/** The logo's copy in the data folder, served by the batch's host like the photos. */
async function logoFileUrl(job: Job, file: string, photos: PhotoPreparation): Promise<string> {
  if (
    !(await stat(file).then(
      (info) => info.isFile(),
      () => false,
    ))
  ) {
    throw new NoWorkingLink(
      `The logo's copy in Adbatch's data folder (${file}) is gone: make the video again with the logo file. Nothing was sent and no credit spent.`,
    );
  }
  const [url] = await photos.urlsFor(job.batchId, [{ path: file, url: null }]);
  return url!;
}
