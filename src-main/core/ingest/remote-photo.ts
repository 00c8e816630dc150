import { failureCodes } from '../api/network-errors.ts';
import { fetchOutbound } from '../net/outbound-fetch.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import { loadSharp } from '../util/load-sharp.ts';
import { MAX_FILE_BYTES, MAX_PIXELS, MIN_SHORT_SIDE, pixelLimitReason, tooLargeReason } from './limits.ts';
import { DECODABLE_KINDS, sniff } from './sniff.ts';
import type { ProblemCode } from './types.ts';

// A catalog photo is used by its URL, as it is: all we can check is that it answers with an image, within
// the limits a local photo is held to. A small ranged GET (most hosts honour it; a host that does not is
// cut off after the same few bytes) tells the content type, the size the host declares (refused at once
// over the byte limit, whatever arrives), and usually the pixel size too, from the image's header (refused
// over the pixel limit before anything is decoded). It goes through the outbound policy: a URL on this
// computer or the office network is refused with its reason, unless its host was allowed by name.

const PROBE_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

export type RemoteCheck =
  | { ok: true; width: number | null; height: number | null }
  | { ok: false; code: ProblemCode; reason: string };

/**
 * A PNG's size from its header chunk, which always comes first: what a bomb declares is read even when the
 * bytes after it are not an image libvips will look at.
 */
function pngHeaderSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Whether the bytes so far already say the image is over the pixel limit (a PNG's header, for now). */
function overPixelsSoFar(head: Buffer): boolean {
  const size = pngHeaderSize(head);
  return size !== null && size.width * size.height > MAX_PIXELS;
}

/** The first bytes, read until there are enough or they already say the image is over the limit. */
async function firstBytes(body: AsyncIterable<Buffer>): Promise<Buffer> {
  let head = Buffer.alloc(0);
  // Leaving the loop early destroys the body: the host that ignores Range is hung up on here.
  for await (const chunk of body) {
    head = Buffer.concat([head, chunk]);
    if (head.length >= PROBE_BYTES || overPixelsSoFar(head)) break;
  }
  return head.subarray(0, PROBE_BYTES);
}

/**
 * The whole file's size as the host declares it: the total of a 206's `Content-Range`, a 200's
 * `Content-Length`; null when it does not say.
 */
function declaredSize(
  statusCode: number,
  headers: Record<string, string | string[] | undefined>,
): number | null {
  const range = headers['content-range'];
  const total = typeof range === 'string' ? /\/(\d+)\s*$/.exec(range)?.[1] : undefined;
  const length = headers['content-length'];
  const declared = statusCode === 206 ? total : typeof length === 'string' ? length : undefined;
  return declared === undefined ? null : Number(declared);
}

function unreachable(error: unknown, prefix: string): RemoteCheck {
  // A system error's code says it best (ECONNREFUSED); undici's own codes less than their message.
  const code = failureCodes(error).find((candidate) => !candidate.startsWith('UND_'));
  const what =
    (error as Error).name === 'TimeoutError'
      ? `no answer within ${TIMEOUT_MS / 1000} s`
      : (code ?? (error as Error).message);
  return { ok: false, code: 'unreachable', reason: `unreachable: ${prefix}${what}` };
}

/** Never throws: whatever goes wrong with the URL or its host is the answer. */
export async function checkRemotePhoto(url: string, policy: OutboundPolicy): Promise<RemoteCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: 'unreachable', reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, code: 'unreachable', reason: `not a public http(s) URL (${parsed.protocol})` };
  }
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let fetched: Awaited<ReturnType<typeof fetchOutbound>>;
  try {
    fetched = await fetchOutbound(parsed.href, policy, {
      headers: { range: `bytes=0-${PROBE_BYTES - 1}`, accept: 'image/*' },
      signal,
    });
  } catch (error) {
    return unreachable(error, '');
  }
  if (!fetched.ok) return { ok: false, code: 'not_public', reason: fetched.reason };
  const { statusCode, headers, body, close } = fetched.answer;
  try {
    if (statusCode !== 200 && statusCode !== 206) {
      return { ok: false, code: 'unreachable', reason: `unreachable: HTTP ${statusCode}` };
    }
    const contentType = headers['content-type'];
    const type = (typeof contentType === 'string' ? contentType : '').split(';')[0]!.trim().toLowerCase();
    if (!type.startsWith('image/') || type === 'image/svg+xml') {
      return type === 'image/svg+xml'
        ? { ok: false, code: 'svg', reason: 'an SVG drawing: the service needs a photo (JPEG, PNG or WebP)' }
        : { ok: false, code: 'not_an_image', reason: `not an image: the server says ${type || 'nothing'}` };
    }
    const declared = declaredSize(statusCode, headers);
    if (declared !== null && declared > MAX_FILE_BYTES) {
      return { ok: false, code: 'too_large', reason: `${tooLargeReason(declared)} (as its server declares)` };
    }
    let bytes: Buffer;
    try {
      bytes = await firstBytes(body);
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
    // Header only, whatever size it claims. sharp throws at once on some input rather than rejecting: both
    // mean "size unknown".
    const meta = await Promise.resolve()
      .then(() => sharp(bytes, { limitInputPixels: false }).metadata())
      .catch(() => null);
    const header = meta?.width && meta.height ? meta : kind === 'png' ? pngHeaderSize(bytes) : null;
    const width = header?.width || null;
    const height = header?.height || null;
    if (width && height && width * height > MAX_PIXELS) {
      return { ok: false, code: 'pixel_limit', reason: pixelLimitReason(width, height) };
    }
    if (width && height && Math.min(width, height) < MIN_SHORT_SIDE) {
      return {
        ok: false,
        code: 'too_small',
        reason: `too small: ${width} x ${height}, the short side must be at least ${MIN_SHORT_SIDE} px`,
      };
    }
    return { ok: true, width, height };
  } finally {
    await close();
  }
}
