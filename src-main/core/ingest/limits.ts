import { megabytes } from '../../shared/byte-words.ts';

// What ingest accepts. The service's own limits on image files are "not shown" in its description, so the
// size and pixel limits are guesses, chosen to pass any real product photo and stop what would stall an
// upload or a decoder.

/** The service takes 1 to 8 photos per shoot. */
export const MAX_PHOTOS_PER_PRODUCT = 8;
/** A shorter side than this is too little for a product shot: rejected. */
export const MIN_SHORT_SIDE = 256;
/** Below this the results may look soft: accepted with a warning. */
export const WARN_SHORT_SIDE = 512;
/**
 * Guess: a photo whose long side is more than this many times its short side is not a product photo (a
 * banner, a long screenshot, a contact sheet): the service fits it into a shot's frame (1:1 by default),
 * where the product comes out tiny or cut. Accepted with a warning: a tall bottle at 1:3 passes quietly.
 */
export const WARN_ASPECT = 4;
/** Guess: larger files are not product photos (a 50 MP camera JPEG is about 25 MB). The sandbox's guess too. */
export const MAX_FILE_BYTES = 40 * 1024 * 1024;
/** Guess: more pixels than this is a decompression bomb, whatever the file size (a 100 MP camera passes). */
export const MAX_PIXELS = 120_000_000;
/** The long side of the thumbnails the app shows. */
export const THUMBNAIL_SIZE = 320;

/** Why a photo of this many bytes is refused, local or remote: the same words for both. */
export function tooLargeReason(bytes: number): string {
  return `too large: ${megabytes(bytes)}, the limit is ${megabytes(MAX_FILE_BYTES)}`;
}

/** Why a photo this large in pixels is refused, local or remote, before a pixel of it is decoded. */
export function pixelLimitReason(width: number, height: number): string {
  return `${width} x ${height} is over the limit of ${MAX_PIXELS / 1e6} megapixels (a decompression bomb?)`;
}
