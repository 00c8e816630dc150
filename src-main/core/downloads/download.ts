import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { megabytes } from '../../shared/byte-words.ts';
import { sha256OfFile } from '../util/file-sha256.ts';
import { loadSharp } from '../util/load-sharp.ts';
import { localFaultOf } from '../util/local-fault.ts';
import { makeFolders } from '../util/make-folders.ts';

// One result to disk: streamed into `<file>.part`, resumed with a Range request when a previous attempt
// left bytes behind, held to a size no result of its kind reaches (MAX_RESULT_BYTES), verified (declared
// length, the image decodes, an MP4 starts with `ftyp`), hashed, and only then renamed into place. A file
// without `.part` is therefore always complete and verified.

export type ExpectedContent = 'image' | 'video';

export class DownloadError extends Error {
  constructor(
    message: string,
    /** Worth trying again (network trouble, 5xx, 429) rather than a result that will never come. */
    readonly transient: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
}

const TIMEOUT_MS = 60_000;

const MB = 1024 * 1024;
/**
 * Guesses: more than any result of its kind can be (a 4K PNG shot is tens of MB, a 30 s 1080p video about
 * 60). A service that answers garbage, or a body that never ends, would otherwise fill the library's disk.
 */
export const MAX_RESULT_BYTES: Readonly<Record<ExpectedContent, number>> = {
  image: 256 * MB,
  video: 4096 * MB,
};

/** Final: the same answer would come again. `size`: what it declared, or how far it went before it was cut. */
function tooLarge(expected: ExpectedContent, size: string, maxBytes: number): DownloadError {
  return new DownloadError(
    `the ${expected} ${size}, more than any ${expected} result (the limit is ${megabytes(maxBytes)}): not kept`,
    false,
  );
}

/** Passes the body on, and fails it once more than `maxBytes` came, counting what the .part held already. */
function capped(start: number, maxBytes: number, expected: ExpectedContent): Transform {
  let total = start;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxBytes) done(tooLarge(expected, `went on past ${megabytes(maxBytes)}`, maxBytes));
      else done(null, chunk);
    },
  });
}

async function partSize(part: string): Promise<number> {
  try {
    return (await stat(part)).size;
  } catch {
    return 0;
  }
}

async function verify(file: string, expected: ExpectedContent): Promise<void> {
  if (expected === 'video') {
    const handle = await open(file, 'r');
    try {
      const head = Buffer.alloc(12);
      const { bytesRead } = await handle.read(head, 0, 12, 0);
      if (bytesRead < 12 || head.subarray(4, 8).toString('latin1') !== 'ftyp') {
        throw new DownloadError('the video is not an MP4 (no ftyp box at its start)', false);
      }
    } finally {
      await handle.close();
    }
    return;
  }
  const sharp = await loadSharp();
  try {
    // Decoding every pixel, not just the header: a truncated or corrupted image fails here.
    await sharp(file, { failOn: 'error' }).stats();
  } catch {
    // Not libvips' words: its error message is one for the process, and may be another file's
    // (core/ingest/decode-gate.ts).
    throw new DownloadError('the image does not decode: its data is damaged or cut short', false);
  }
}

/**
 * Makes `dir` and the folders between `root` and it, never `root` itself nor above: a library deleted while
 * a download was under way is not started again by it (ENOENT, a local fault: its batch pauses).
 */
export async function mkdirBelow(root: string, dir: string): Promise<void> {
  let current = root;
  for (const part of relative(root, dir).split(sep).filter(Boolean)) {
    current = join(current, part);
    await mkdir(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

/**
 * Downloads `url` to `file`, verified. `root`: a folder above `file` that must already be there (the batch's
 * folder in its library); the folders below it are made as needed.
 */
export async function downloadVerified(
  url: string,
  file: string,
  expected: ExpectedContent,
  options: { dispatcher?: Dispatcher; signal?: AbortSignal; root?: string; maxBytes?: number } = {},
): Promise<DownloadResult> {
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES[expected];
  const part = `${file}.part`;
  if (options.root) await mkdirBelow(options.root, dirname(file));
  else await makeFolders(dirname(file));
  const offset = await partSize(part);
  let response: Dispatcher.ResponseData;
  // Imported on first use, not at startup (api/transport.ts says why).
  const { request } = await import('undici');
  try {
    response = await request(url, {
      method: 'GET',
      headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw new DownloadError(`could not reach ${new URL(url).host}: ${(error as Error).message}`, true, {
      cause: error,
    });
  }
  const { statusCode, headers, body } = response;
  if (statusCode !== 200 && statusCode !== 206) {
    await body.dump();
    if (statusCode === 416) await rm(part, { force: true });
    const transient = statusCode === 416 || statusCode === 408 || statusCode === 429 || statusCode >= 500;
    throw new DownloadError(`the result answered HTTP ${statusCode}`, transient);
  }
  const resumed = statusCode === 206;
  const declared = Number(headers['content-length']);
  const expectedTotal = Number.isFinite(declared) ? declared + (resumed ? offset : 0) : null;
  if (expectedTotal !== null && expectedTotal > maxBytes) {
    await body.dump();
    await rm(part, { force: true });
    throw tooLarge(expected, `is ${megabytes(expectedTotal)}`, maxBytes);
  }
  try {
    await pipeline(
      body,
      capped(resumed ? offset : 0, maxBytes, expected),
      createWriteStream(part, { flags: resumed ? 'a' : 'w' }),
    );
  } catch (error) {
    // A write this computer refused (a full disk) is not the network's: it goes up as it is.
    if (localFaultOf(error)) throw error;
    if (error instanceof DownloadError) {
      await rm(part, { force: true });
      throw error;
    }
    throw new DownloadError(`the download was cut off: ${(error as Error).message}`, true, { cause: error });
  }
  const size = await partSize(part);
  if (expectedTotal !== null && size !== expectedTotal) {
    throw new DownloadError(`the download was cut off at ${size} of ${expectedTotal} bytes`, true);
  }
  try {
    await verify(part, expected);
  } catch (error) {
    // A corrupted file is not resumable: start over next time.
    await rm(part, { force: true });
    if (error instanceof DownloadError) throw new DownloadError(error.message, true);
    throw error;
  }
  const sha256 = await sha256OfFile(part);
  await rename(part, file);
  return { bytes: size, sha256 };
}
