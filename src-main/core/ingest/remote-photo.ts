import { loadSharp } from '../util/load-sharp.ts';
import { MIN_SHORT_SIDE } from './limits.ts';
import { DECODABLE_KINDS, sniff } from './sniff.ts';
import type { ProblemCode } from './types.ts';

// A catalog photo is used by its URL, as it is: all we can check is that it answers with an image. A small
// ranged GET (most hosts honour it; a host that does not is cut off after the same few bytes) tells the
// content type, and usually the size too, from the image's header.

const PROBE_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

export type RemoteCheck =
  | { ok: true; width: number | null; height: number | null }
  | { ok: false; code: ProblemCode; reason: string };

async function firstBytes(body: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < PROBE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, PROBE_BYTES);
}

function unreachable(error: unknown, prefix: string): RemoteCheck {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // A system error's code says it best (ECONNREFUSED); undici's own codes less than their message.
  const what =
    (error as Error).name === 'TimeoutError'
      ? `no answer within ${TIMEOUT_MS / 1000} s`
      : cause?.code && !cause.code.startsWith('UND_')
        ? cause.code
        : (cause?.message ?? (error as Error).message);
  return { ok: false, code: 'unreachable', reason: `unreachable: ${prefix}${what}` };
}

/** Never throws: whatever goes wrong with the URL or its host is the answer. */
export async function checkRemotePhoto(url: string): Promise<RemoteCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: 'unreachable', reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, code: 'unreachable', reason: `not a public http(s) URL (${parsed.protocol})` };
  }
  let response: Response;
  try {
    response = await fetch(parsed, {
      headers: { range: `bytes=0-${PROBE_BYTES - 1}`, accept: 'image/*' },
      redirect: 'follow',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return unreachable(error, '');
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, code: 'unreachable', reason: `unreachable: HTTP ${response.status}` };
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type.startsWith('image/') || type === 'image/svg+xml') {
    await response.body?.cancel().catch(() => {});
    return type === 'image/svg+xml'
      ? { ok: false, code: 'svg', reason: 'an SVG drawing: the service needs a photo (JPEG, PNG or WebP)' }
      : { ok: false, code: 'not_an_image', reason: `not an image: the server says ${type || 'nothing'}` };
  }
  let bytes: Buffer;
  try {
    bytes = await firstBytes(response.body);
  } catch (error) {
    // The host stalled or hung up in the middle of the image: the service would fare no better.
    return unreachable(error, 'the answer broke off: ');
  }
  if (bytes.length === 0) {
    return { ok: false, code: 'empty', reason: 'empty: the server sent no bytes' };
  }
  // An error page labelled image/jpeg is still an error page.
  const kind = sniff(bytes);
  if (!DECODABLE_KINDS.has(kind)) {
    return {
      ok: false,
      code: 'not_an_image',
      reason: `not an image: the server says ${type} but sends ${kind} content`,
    };
  }
  const sharp = await loadSharp();
  // sharp throws at once on some input rather than rejecting: both mean "size unknown".
  const meta = await Promise.resolve()
    .then(() => sharp(bytes, { limitInputPixels: false }).metadata())
    .catch(() => null);
  const width = meta?.width ?? null;
  const height = meta?.height ?? null;
  if (width && height && Math.min(width, height) < MIN_SHORT_SIDE) {
    return {
      ok: false,
      code: 'too_small',
      reason: `too small: ${width} x ${height}, the short side must be at least ${MIN_SHORT_SIDE} px`,
    };
  }
  return { ok: true, width, height };
}
