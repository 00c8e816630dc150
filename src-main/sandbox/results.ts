import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { InputImageError, renderShots } from './render/shots.ts';
import { pickAspectRatio, renderVideo, type VideoRenderer } from './render/video.ts';
import type { Job, JobFailure, ShootJob, VideoJob } from './state.ts';

// Making a job's results, as the real service must: fetch its inputs from their public URLs, then render.
// Results live under <assetsDir>/<assetToken>/ and are served by the sandbox without a key, like a CDN.

const FETCH_TIMEOUT_MS = 15_000;
const MAX_INPUT_BYTES = 40 * 1024 * 1024;

export class InputError extends Error {
  constructor(readonly failure: JobFailure) {
    super(failure.message);
  }
}

export function shotFile(index: number): string {
  return `shot-${index + 1}.jpg`;
}
export function thumbnailFile(index: number): string {
  return `thumb-${index + 1}.jpg`;
}
export const VIDEO_FILE = 'video.mp4';

/** How long a careful service keeps trying an input that does not answer (or answers 5xx) before giving up. */
const INPUT_RETRY_WINDOW_MS = 20_000;

async function fetchOnce(
  url: string,
  label: string,
  signal: AbortSignal,
): Promise<Buffer | { retry: string }> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]),
      redirect: 'follow',
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return { retry: (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message };
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel();
    return { retry: `HTTP ${response.status}` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new InputError({
      code: 'input_unreachable',
      message: `${label} could not be fetched: HTTP ${response.status}.`,
    });
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_INPUT_BYTES) {
    await response.body?.cancel();
    throw new InputError({ code: 'input_too_large', message: `${label} is larger than 40 MiB.` });
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    // The host went away mid-body: as retryable as a host that did not answer at all.
    if (signal.aborted) throw error;
    return { retry: (error as Error).message };
  }
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new InputError({ code: 'input_too_large', message: `${label} is larger than 40 MiB.` });
  }
  return bytes;
}

/** Fetches an input, retrying a host that does not answer or answers 5xx for a while; a 4xx is final. */
async function fetchInput(url: string, label: string, signal: AbortSignal): Promise<Buffer> {
  const giveUpAt = Date.now() + INPUT_RETRY_WINDOW_MS;
  for (let attempt = 0; ; attempt++) {
    const result = await fetchOnce(url, label, signal);
    if (Buffer.isBuffer(result)) return result;
    if (Date.now() >= giveUpAt) {
      throw new InputError({
        code: 'input_unreachable',
        message: `${label} could not be fetched: ${result.retry}.`,
      });
    }
    await sleep(Math.min(2000, 100 * 2 ** attempt), undefined, { signal });
  }
}

function asInputError(error: unknown): never {
  if (error instanceof InputImageError) {
    throw new InputError({ code: 'invalid_input', message: error.message });
  }
  throw error;
}

async function renderShoot(job: ShootJob, dir: string, signal: AbortSignal): Promise<void> {
  const { request } = job;
  const productImages = await Promise.all(
    request.productImageUrls.map((url, index) => fetchInput(url, `product_image_urls[${index}]`, signal)),
  );
  const modelImage = request.modelUrl ? await fetchInput(request.modelUrl, 'model_url', signal) : undefined;
  const shots = await renderShots({
    productImages,
    ...(modelImage ? { modelImage } : {}),
    style: request.style,
    aspectRatio: request.aspectRatio,
    quality: request.quality,
    ...(request.backgroundColor ? { backgroundColor: request.backgroundColor } : {}),
    shots: job.shots,
    seed: job.id,
  }).catch(asInputError);
  await mkdir(dir, { recursive: true });
  await Promise.all(
    shots.flatMap((shot, index) => [
      writeFile(join(dir, shotFile(index)), shot.image),
      writeFile(join(dir, thumbnailFile(index)), shot.thumbnail),
    ]),
  );
}

async function renderVideoJob(
  job: VideoJob,
  dir: string,
  renderer: VideoRenderer,
  signal: AbortSignal,
): Promise<void> {
  const images = await Promise.all(
    job.request.imageUrls.map((url, index) => fetchInput(url, `image_urls[${index}]`, signal)),
  );
  // The logo is an input like the images: fetched, and refused when it is not a decodable image. (The
  // sandbox's clip does not show it; a test reads the request log and the fetch to see it was given.)
  if (job.request.logoUrl) {
    const logo = await fetchInput(job.request.logoUrl, 'logo_url', signal);
    await sharp(logo)
      .metadata()
      .catch(() => {
        throw new InputError({ code: 'invalid_input', message: 'logo_url is not a decodable image.' });
      });
  }
  const hero = await sharp(images[0]!)
    .metadata()
    .catch(() => {
      throw new InputError({ code: 'invalid_input', message: 'image_urls[0] is not a decodable image.' });
    });
  const aspectRatio = job.request.aspectRatio ?? pickAspectRatio(hero.width ?? 1, hero.height ?? 1);
  await mkdir(dir, { recursive: true });
  await renderVideo(
    {
      images,
      duration: job.request.duration,
      resolution: job.request.resolution,
      aspectRatio,
      music: job.request.music ?? true,
      seed: job.id,
    },
    join(dir, VIDEO_FILE),
    renderer,
  ).catch(asInputError);
}

export function renderJob(
  job: Job,
  dir: string,
  videoRenderer: VideoRenderer,
  signal: AbortSignal,
): Promise<void> {
  return job.kind === 'shoot'
    ? renderShoot(job, dir, signal)
    : renderVideoJob(job, dir, videoRenderer, signal);
}
