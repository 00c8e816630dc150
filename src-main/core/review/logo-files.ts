import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { megabytes } from '../../shared/byte-words.ts';
import { refusalWords } from '../app/fs-refusal.ts';
import { sniff } from '../ingest/sniff.ts';
import { loadSharp } from '../util/load-sharp.ts';
import { sweepStaleParts } from '../util/stale-parts.ts';
import { writeAtomically } from '../util/write-atomically.ts';

// A logo for the videos from a file on this computer. The service takes only a public URL, so the file is
// served by the batch's photo host when a video is posted, like the photos. It is checked here (a PNG,
// JPEG or WebP image that decodes in full, of a sensible size), then copied into the data folder under its
// sha256, so the batch keeps working when the original is moved or edited, and the same logo is kept once.

/** Guess: no logo needs more; a larger file is not a logo, and would slow the service's fetch. */
export const MAX_LOGO_BYTES = 10 * 1024 * 1024;
/** Guess: a side shorter than this cannot be shown legibly in a 480p video. */
export const MIN_LOGO_SIDE = 16;
/** Guess: more pixels than this is not a logo (a decompression bomb at worst). */
export const MAX_LOGO_PIXELS = 40_000_000;

const LOGO_KINDS = { png: '.png', jpeg: '.jpg', webp: '.webp' } as const;
type LogoKind = keyof typeof LOGO_KINDS;
/** The data folder's folder of logo copies. */
const LOGOS = 'logos';

export interface CheckedLogo {
  path: string;
  /** The bytes checked: what is kept, whatever happens to the file afterwards. */
  bytes: Buffer;
  sha256: string;
  extension: string;
}

/** A logo file that cannot be used; the message names the file and what is wrong with it. */
export class LogoRefused extends Error {}

/** Checks a logo file; throws `LogoRefused` saying what is wrong with it. */
export async function checkLogoFile(path: string): Promise<CheckedLogo> {
  const name = basename(path);
  const refuse = (why: string) => new LogoRefused(`The logo ${name} ${why}.`);
  // What the file system answered, in its words (fs-refusal.ts), never its code alone.
  const unreadable = (error: NodeJS.ErrnoException) =>
    new LogoRefused(`The logo ${name} cannot be read: ${refusalWords(error)}`);
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? refuse(`is not there (${path})`) : unreadable(error);
  });
  if (!info.isFile()) throw refuse('is not a file');
  if (info.size > MAX_LOGO_BYTES)
    throw refuse(`is ${megabytes(info.size)}: a logo must be at most ${megabytes(MAX_LOGO_BYTES)}`);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    error.path ??= path;
    throw unreadable(error);
  });
  const kind = sniff(bytes);
  if (!(kind in LOGO_KINDS)) throw refuse(`is not a PNG, JPEG or WebP image (it is ${kind})`);
  let width = 0;
  let height = 0;
  const sharp = await loadSharp();
  // Said in fixed words, never with libvips' message: that is one for the whole process, and may be
  // another image's (ingest/decode-gate.ts).
  const damaged = () => refuse('does not decode as an image: its data is damaged or cut short');
  const decoded = sharp(bytes, { failOn: 'error', limitInputPixels: false });
  try {
    ({ width = 0, height = 0 } = await decoded.metadata());
  } catch {
    throw damaged();
  }
  if (width * height > MAX_LOGO_PIXELS)
    throw refuse(
      `is ${width}×${height}: a logo must be at most ${MAX_LOGO_PIXELS / 1_000_000} million pixels`,
    );
  // Decoding every pixel, not just the header: a truncated file fails here, not at the service.
  await decoded.stats().catch(() => {
    throw damaged();
  });
  if (Math.min(width, height) < MIN_LOGO_SIDE)
    throw refuse(`is ${width}×${height}: a logo needs at least ${MIN_LOGO_SIDE} pixels on each side`);
  return {
    path,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    extension: LOGO_KINDS[kind as LogoKind],
  };
}

/** Where a logo's copy lives in the data folder: `<data>/logos/<ab>/<sha256>.<ext>`. */
export function logoCopyPath(dataDir: string, logo: Pick<CheckedLogo, 'sha256' | 'extension'>): string {
  return join(dataDir, LOGOS, logo.sha256.slice(0, 2), `${logo.sha256}${logo.extension}`);
}

/** Checks the logo and keeps a copy of it in the data folder (once per content); its path. */
export async function keepLogoFile(dataDir: string, path: string): Promise<string> {
  const logo = await checkLogoFile(path);
  const copy = logoCopyPath(dataDir, logo);
  const kept = await stat(copy).catch(() => null);
  if (kept?.isFile()) return copy;
  // What a killed write of a logo's copy left goes before the first copy of the process is written.
  await sweepStaleParts(dataDir, [LOGOS]);
  await writeAtomically(copy, (part) => writeFile(part, logo.bytes));
  return copy;
}
