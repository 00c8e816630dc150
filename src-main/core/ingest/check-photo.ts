import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, copyFile, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Metadata, Sharp } from 'sharp';
import { describeFsFailure } from '../app/fs-refusal.ts';
import { loadSharp } from '../util/load-sharp.ts';
import { writeAtomically } from '../util/write-atomically.ts';
import { decodeGate } from './decode-gate.ts';
import {
  MAX_FILE_BYTES,
  MAX_PIXELS,
  MIN_SHORT_SIDE,
  pixelLimitReason,
  THUMBNAIL_SIZE,
  tooLargeReason,
  WARN_ASPECT,
  WARN_SHORT_SIDE,
} from './limits.ts';
import { DECODABLE_KINDS, SERVICE_READY_KINDS, type SniffedKind, sniff } from './sniff.ts';
import type { ProblemCode } from './types.ts';

// One photo, checked by its content: hashed (a large one as it streams, so it never blocks the event loop),
// sniffed, its header read, then decoded in full exactly once, by making its thumbnail, which
// is what proves it is not truncated. Files that the service should not get as they are (another format,
// CMYK, 16-bit, a wide-gamut profile, a sideways EXIF orientation) get a converted copy, sent instead.
// Both land in a cache keyed by the content hash, so a photo seen before is not decoded again.

/** A file found by the walk. Names that are not valid UTF-8 are kept as raw bytes to be opened at all. */
export interface FileRef {
  path: string | Buffer;
  /** The path for people: invalid bytes shown as U+FFFD. */
  display: string;
  /** False when `path` cannot round-trip through a string: the photo is then sent from a copy. */
  utf8Name: boolean;
  /** Where the photo really is, when a link that leaves the dropped folder led to it. */
  realPath?: string;
}

export interface CheckedContent {
  hash: string;
  format: SniffedKind;
  /** Upright, as the photo is seen. */
  width: number;
  height: number;
  thumbnail: string;
  /** The converted copy to send, or null to send the original. */
  prepared: string | null;
  converted: string | null;
  warnings: Array<{ code: ProblemCode; reason: string }>;
}

export type CheckResult =
  | { ok: true; photo: CheckedContent; sendPath: string }
  | { ok: false; code: ProblemCode; reason: string };

/** Where thumbnails and converted copies live, keyed by content hash. */
export interface IngestCache {
  dir: string;
}

export function thumbnailPath(cache: IngestCache, hash: string): string {
  return join(cache.dir, 'thumbnails', hash.slice(0, 2), `${hash}.jpg`);
}

function preparedPath(cache: IngestCache, hash: string, extension: string): string {
  return join(cache.dir, 'prepared', hash.slice(0, 2), `${hash}${extension}`);
}

const KIND_NAMES: Record<SniffedKind, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  gif: 'GIF',
  tiff: 'TIFF',
  heif: 'HEIC/HEIF',
  avif: 'AVIF',
  svg: 'SVG',
  bmp: 'BMP',
  pdf: 'PDF',
  psd: 'Photoshop',
  text: 'text',
  empty: 'empty',
  unknown: 'unknown',
};

type Rejection = { ok: false; code: ProblemCode; reason: string };
const reject = (code: ProblemCode, reason: string): Rejection => ({ ok: false, code, reason });

function readError(error: NodeJS.ErrnoException): Rejection {
  if (error.code === 'EACCES' || error.code === 'EPERM')
    return reject('unreadable', 'unreadable: permission denied');
  if (error.code === 'ENOENT') return reject('unreadable', 'unreadable: the file vanished while scanning');
  return reject('unreadable', `unreadable: ${describeFsFailure(error) ?? error.message}`);
}

/**
 * Up to this size a photo is read into memory once, hashed in one go (about 2 ms of main thread) and decoded
 * from memory. A larger one is hashed chunk by chunk as it streams past, keeping only its first bytes for
 * sniffing, and sharp decodes it from the file itself (from the page cache by then): JavaScript never holds
 * a large photo, and the event loop is never held for long.
 */
const WHOLE_READ_BYTES = 1024 * 1024;
const HASH_CHUNK_BYTES = 256 * 1024;
/** Enough for every signature `sniff` looks at (an SVG may start after a long XML prolog). */
const HEAD_BYTES = 4096;

interface ReadPhoto {
  hash: string;
  /** The first bytes, for sniffing. */
  head: Buffer;
  /** What sharp decodes: the bytes in memory, or the file's path. */
  input: Buffer | string;
}

async function readPhoto(path: string | Buffer, size: number): Promise<ReadPhoto> {
  // A path that is not valid UTF-8 can only be opened as raw bytes, which sharp cannot take: read it whole.
  if (size <= WHOLE_READ_BYTES || typeof path !== 'string') {
    const bytes = await readFile(path);
    return {
      hash: createHash('sha256').update(bytes).digest('hex'),
      head: bytes.subarray(0, HEAD_BYTES),
      input: bytes,
    };
  }
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: HASH_CHUNK_BYTES })) {
    hash.update(chunk as Buffer);
    if (head.length < HEAD_BYTES)
      head = Buffer.concat([head, (chunk as Buffer).subarray(0, HEAD_BYTES - head.length)]);
  }
  return { hash: hash.digest('hex'), head, input: path };
}

function refusedKind(kind: SniffedKind): Rejection | null {
  switch (kind) {
    case 'empty':
      return reject('empty', 'empty file (0 bytes)');
    case 'svg':
      return reject('svg', 'an SVG drawing: export it as PNG or JPEG at the size you want');
    case 'bmp':
    case 'psd':
      return reject(
        'unsupported_format',
        `a ${KIND_NAMES[kind]} file, which Adbatch cannot read: save it as JPEG or PNG`,
      );
    case 'pdf':
      return reject('not_an_image', 'not an image: a PDF document');
    case 'text':
      return reject('not_an_image', 'not an image: a text file');
    case 'unknown':
      return reject('not_an_image', 'not an image: unrecognised content');
    default:
      return DECODABLE_KINDS.has(kind) ? null : reject('not_an_image', 'not an image');
  }
}

/**
 * sRGB profiles say so in their description (ASCII in ICC v2, UTF-16 in v4, hence the NULs dropped);
 * anything else is converted rather than guessed at.
 */
export function isSrgbProfile(icc: Buffer): boolean {
  const text = icc.toString('latin1').replaceAll('\0', '');
  return /sRGB|IEC\s?61966-2/.test(text);
}

function conversionReasons(kind: SniffedKind, meta: Metadata): string[] {
  const reasons: string[] = [];
  if (!SERVICE_READY_KINDS.has(kind)) reasons.push(`${KIND_NAMES[kind]} converted to JPEG`);
  if (meta.space === 'cmyk') reasons.push('CMYK converted to sRGB');
  else if (meta.icc && !isSrgbProfile(meta.icc)) reasons.push('colour profile converted to sRGB');
  if (meta.depth && meta.depth !== 'uchar' && meta.depth !== 'char') reasons.push('16-bit reduced to 8-bit');
  if (meta.orientation && meta.orientation > 1) reasons.push('turned upright from its EXIF orientation');
  return reasons;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** How a complete file of this kind ends: JPEG's end-of-image marker, PNG's IEND chunk with its CRC. */
const TRAILERS: Partial<Record<SniffedKind, Buffer>> = {
  jpeg: Buffer.from([0xff, 0xd9]),
  png: Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]),
};
/** Bytes at the end searched for the trailer: some cameras write padding or a small block after it. */
const TAIL_BYTES = 4096;

/** What the bytes themselves say of a file that failed to decode: whole, cut short, or unknown for this format. */
type Ending = 'whole' | 'cut' | 'unknown';

/** The file's last bytes (up to TAIL_BYTES) and its size. */
async function readTail(input: Buffer | string): Promise<{ tail: Buffer; size: number }> {
  if (typeof input !== 'string') return { tail: input.subarray(-TAIL_BYTES), size: input.length };
  const file = await open(input, 'r');
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
    await file.read(tail, 0, tail.length, size - tail.length);
    return { tail, size };
  } finally {
    await file.close();
  }
}

/**
 * Whether a file that failed to decode was cut short, judged from its bytes: JPEG and PNG by their
 * trailer, WebP by the length its RIFF header declares. Not from libvips' message: its error buffer is
 * shared by the whole process, so while several photos decode at once (as a scan does) a failure may
 * carry another file's message ("premature end of JPEG image" for a damaged file that is whole).
 */
async function ending(kind: SniffedKind, { input, head }: ReadPhoto): Promise<Ending> {
  const trailer = TRAILERS[kind];
  if (!trailer && kind !== 'webp') return 'unknown';
  const { tail, size } = await readTail(input);
  if (trailer) return tail.includes(trailer) ? 'whole' : 'cut';
  if (head.length < 12) return 'cut';
  // RIFF's size counts everything after its first 8 bytes.
  return size >= head.readUInt32LE(4) + 8 ? 'whole' : 'cut';
}

/**
 * The reason for a file sharp could not decode. libvips' words are read only where the bytes cannot
 * tell (formats without a trailer) and never quoted: they may be another photo's (see `ending`).
 */
function decodeFailure(kind: SniffedKind, error: Error, end: Ending): Rejection {
  const name = KIND_NAMES[kind];
  // This build of sharp decodes AV1 HEIF (AVIF) only: a HEVC HEIC from a phone always lands here.
  if (kind === 'heif' || kind === 'avif') {
    return reject('unsupported_format', `a ${name} photo that could not be decoded: export it as JPEG`);
  }
  const cut = reject('truncated', `truncated: the ${name} data ends early`);
  const damaged = reject('truncated', `corrupt ${name}: the image data is damaged`);
  if (end === 'cut') return cut;
  if (end === 'whole') return damaged;
  const message = error.message.split('\n')[0] ?? '';
  if (!/corrupt/i.test(message) && /premature end|truncat|unexpected end|end of (file|stream)/i.test(message))
    return cut;
  if (/corrupt|warning treated as error/i.test(message)) return damaged;
  // libvips reports a failed decode it has seen before as "Unknown error": no detail beats a wrong one.
  return reject('truncated', `truncated or corrupt ${name}`);
}

/**
 * Sharp's output streamed into `part` by Node, not written by libvips: a failure to write (the disk full, the
 * folder not writable) then carries the system's code, which a decode's failure never does, and names the
 * cache folder rather than a `.part` file.
 */
async function saved(image: Sharp, part: string, cache: IngestCache): Promise<void> {
  try {
    await pipeline(image, createWriteStream(part));
  } catch (error) {
    if (isWriteFailure(error)) (error as NodeJS.ErrnoException).path = cache.dir;
    throw error;
  }
}

/** A failure of the file system (it has the system's code), as opposed to a photo that does not decode. */
function isWriteFailure(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string';
}

/** Sharp's words for a failure that name no cause: the message was cleared by another decode. */
const NAMELESS_LINES =
  /^(warning treated as error due to failon setting|unknown error|error in tile \d+ x \d+|read gave \d+ warnings?)?$/i;
/** Times a failed decode is run alone to learn its cause, while its message comes back nameless. */
const FAILURE_READINGS = 3;

/**
 * Why a decode failed, from the same decode run alone (decode-gate.ts: run beside others, its message may be
 * another photo's): only stray bytes between markers, which a tolerant decode passes; a failure of its own,
 * its message now its own; or nothing at all, when alone it decoded (the file was written).
 */
async function readFailure(
  write: () => Promise<unknown>,
  first: Error,
): Promise<'decoded' | 'stray_bytes' | Error> {
  let failure = first;
  for (let reading = 0; reading < FAILURE_READINGS; reading++) {
    try {
      await decodeGate.alone(write);
      return 'decoded';
    } catch (error) {
      if (isWriteFailure(error)) throw error;
      failure = error as Error;
    }
    if (/extraneous bytes/i.test(failure.message)) return 'stray_bytes';
    if (!failure.message.split('\n').every((line) => NAMELESS_LINES.test(line.trim()))) return failure;
  }
  return failure;
}

async function checkContent(
  read: ReadPhoto,
  cache: IngestCache,
): Promise<Rejection | { ok: true; photo: CheckedContent }> {
  const { input, head, hash } = read;
  const kind = sniff(head);
  const refused = refusedKind(kind);
  if (refused) return refused;

  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Header only: safe for any pixel count, which is checked next, before anything is decoded.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    return decodeFailure(kind, error as Error, await ending(kind, read));
  }
  if (!meta.width || !meta.height) return reject('truncated', `truncated or corrupt ${KIND_NAMES[kind]}`);
  const pixels = meta.width * meta.height;
  if (pixels > MAX_PIXELS) {
    return reject('pixel_limit', pixelLimitReason(meta.width, meta.height));
  }
  if ((meta.pages ?? 1) > 1) return reject('animated', `animated (${meta.pages} frames): use a still photo`);
  const sideways = (meta.orientation ?? 1) >= 5;
  const width = sideways ? meta.height : meta.width;
  const height = sideways ? meta.width : meta.height;
  const shortSide = Math.min(width, height);
  if (shortSide < MIN_SHORT_SIDE) {
    return reject(
      'too_small',
      `too small: ${width} x ${height}, the short side must be at least ${MIN_SHORT_SIDE} px`,
    );
  }
  const warnings: CheckedContent['warnings'] = [];
  if (shortSide < WARN_SHORT_SIDE) {
    warnings.push({
      code: 'small',
      reason: `small: ${width} x ${height}; results may look soft below ${WARN_SHORT_SIDE} px on the short side`,
    });
  }
  const longSide = Math.max(width, height);
  if (longSide > WARN_ASPECT * shortSide) {
    const ratio = Math.round(longSide / shortSide);
    warnings.push({
      code: 'odd_shape',
      reason: `odd shape: ${width} x ${height} (${width > height ? `${ratio}:1` : `1:${ratio}`}), not a product photo's (a banner or a long screenshot?); the service fits it into the shot's frame, where the product may come out small or cut`,
    });
  }

  const reasons = conversionReasons(kind, meta);
  const thumbnail = thumbnailPath(cache, hash);
  const prepared = reasons.length > 0 ? preparedPath(cache, hash, meta.hasAlpha ? '.png' : '.jpg') : null;
  // Strict: libjpeg reports damaged entropy data only as a warning. The one warning let through is stray
  // bytes between markers, which some cameras write and which costs no pixel.
  let failOn: 'warning' | 'error' = 'warning';
  const decoder = () => sharp(input, { failOn, limitInputPixels: MAX_PIXELS }).rotate();
  const decode = async (write: () => Promise<unknown>) => {
    try {
      await decodeGate.beside(write);
    } catch (error) {
      if (isWriteFailure(error)) throw error;
      const verdict = await readFailure(write, error as Error);
      if (verdict === 'decoded') return;
      if (verdict !== 'stray_bytes') throw verdict;
      failOn = 'error';
      await decodeGate.beside(write);
    }
  };
  try {
    // A thumbnail in the cache was made by a full decode of these very bytes: no need to decode again.
    if (!(await exists(thumbnail))) {
      await decode(() =>
        writeAtomically(thumbnail, (part) =>
          saved(
            decoder()
              .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
              .flatten({ background: '#ffffff' })
              .jpeg({ quality: 80 }),
            part,
            cache,
          ),
        ),
      );
    }
    if (prepared && !(await exists(prepared))) {
      await decode(() =>
        writeAtomically(prepared, (part) => {
          const srgb = decoder().toColourspace('srgb');
          return saved(meta.hasAlpha ? srgb.png() : srgb.jpeg({ quality: 92 }), part, cache);
        }),
      );
    }
  } catch (error) {
    // Adbatch's own cache could not be written (a full disk): not the photo's fault, and the scan's to say.
    if (isWriteFailure(error)) throw error;
    return decodeFailure(kind, error as Error, await ending(kind, read));
  }
  return {
    ok: true,
    photo: {
      hash,
      format: kind,
      width,
      height,
      thumbnail,
      prepared,
      converted: reasons.length > 0 ? reasons.join('; ') : null,
      warnings,
    },
  };
}

/** Checks of the same bytes within one scan are shared: a photo copied into ten folders is decoded once. */
export type ContentMemo = Map<string, Promise<Rejection | { ok: true; photo: CheckedContent }>>;

export async function checkPhoto(file: FileRef, cache: IngestCache, memo: ContentMemo): Promise<CheckResult> {
  let read: ReadPhoto;
  try {
    const info = await stat(file.path);
    if (info.size === 0) return reject('empty', 'empty file (0 bytes)');
    if (info.size > MAX_FILE_BYTES) {
      return reject('too_large', tooLargeReason(info.size));
    }
    read = await readPhoto(file.path, info.size);
  } catch (error) {
    return readError(error as NodeJS.ErrnoException);
  }
  let pending = memo.get(read.hash);
  if (!pending) {
    pending = checkContent(read, cache);
    memo.set(read.hash, pending);
  }
  const checked = await pending;
  if (!checked.ok) return checked;
  const photo = checked.photo;
  if (photo.prepared) return { ok: true, photo, sendPath: photo.prepared };
  if (typeof file.path === 'string' && file.utf8Name) return { ok: true, photo, sendPath: file.path };
  // A name that cannot be written as a string cannot be stored or served later: send a copy.
  const copy = preparedPath(cache, photo.hash, `.${photo.format === 'jpeg' ? 'jpg' : photo.format}`);
  if (!(await exists(copy))) await writeAtomically(copy, (part) => copyFile(file.path, part));
  return { ok: true, photo, sendPath: copy };
}
