import { createHash } from 'node:crypto';
import type { Photo, ShootSettings, VideoSettings } from './types.ts';

/**
 * What a product's jobs would make, as one hash: its photos by content (hero first, order matters since the
 * hero leads the shoot) and the settings. Two products with the same fingerprint cost the same credits for
 * the same results, so a match with an earlier batch means the credits would be spent twice. A photo
 * without a content hash (a catalog URL) stands for itself by its URL.
 */
export function productFingerprint(
  photos: readonly Photo[],
  shoot: ShootSettings,
  video: VideoSettings | null,
): string {
  const canonical = JSON.stringify({
    photos: photos.map((photo) => photo.hash ?? photo.url ?? photo.path),
    shoot: [
      shoot.style,
      shoot.shots,
      shoot.quality,
      shoot.aspectRatio,
      shoot.mode,
      shoot.modelUrl,
      shoot.backgroundColor?.toLowerCase() ?? null,
    ],
    video: video ? [video.duration, video.resolution, video.mode, video.aspectRatio] : null,
  });
  return createHash('sha256').update(canonical).digest('hex');
}
