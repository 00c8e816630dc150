import { failureCodes } from '../api/network-errors.ts';
import { fetchOutbound } from '../net/outbound-fetch.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';

// Whether a result's URL still answers, asked right before it is handed to the service as an input: the
// contract does not promise that result URLs last, and a video made from a URL that no longer answers is
// charged, then fails (and is refunded) minutes later.
//
// The question is a GET of the first byte (`Range: bytes=0-0`), not a HEAD: a presigned URL (S3 and its
// kind) is signed for one method and answers a HEAD with 403, and some CDNs answer HEAD differently from
// GET. A server that ignores the Range answers 200 with the whole file, whose body is dropped unread.

/** Guess: a CDN that takes longer than this to start answering will not serve the service reliably either. */
export const LINK_CHECK_TIMEOUT_MS = 5_000;

/**
 * `gone`: the server said the file is not there for us (a 4xx such as 404, 410 or 403); otherwise the
 * question got no answer that says so (a 5xx, a reset, no answer in time), which may be the moment's.
 */
export type LinkAnswer = { answers: true } | { answers: false; why: string; gone: boolean };

/** 4xx answers that say "not now" rather than "not here". */
const PASSING_CLIENT_ERRORS = new Set([408, 425, 429]);

export type LinkCheck = (url: string) => Promise<LinkAnswer>;

/**
 * Whether a content type can be an image: any `image/*`, or none said precisely (a generic binary type, or
 * none at all), which the service may still read; a web page or a JSON error is not.
 */
function mayBeImage(contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' || type.startsWith('image/') || type === 'application/octet-stream';
}

type FirstByte = { status: number; contentType: string | null } | { refused: string };

/** The answer's status and type: Adbatch's own addresses and the service's are asked as they are. */
async function firstByte(url: string, signal: AbortSignal): Promise<FirstByte> {
  const response = await fetch(url, { headers: { range: 'bytes=0-0' }, redirect: 'follow', signal });
  await response.body?.cancel().catch(() => {});
  return { status: response.status, contentType: response.headers.get('content-type') };
}

/** The same for an address from input, through the outbound policy: it may be refused without a request. */
async function firstByteOfInput(
  url: string,
  signal: AbortSignal,
  policy: OutboundPolicy,
): Promise<FirstByte> {
  const fetched = await fetchOutbound(url, policy, { headers: { range: 'bytes=0-0' }, signal });
  if (!fetched.ok) return { refused: fetched.reason };
  const { statusCode, headers, close } = fetched.answer;
  await close();
  const contentType = headers['content-type'];
  return { status: statusCode, contentType: typeof contentType === 'string' ? contentType : null };
}

/**
 * Asks for the URL's first byte; anything but a 2xx within the timeout is a URL that does not answer. With
 * `image`, a 2xx whose content type cannot be an image (an error page served as 200) does not either.
 * With `policy`, the URL came from input (a catalog, an address typed): it is asked under the outbound policy,
 * and one it refuses does not answer, with the policy's reason.
 */
export async function checkLink(
  url: string,
  timeoutMs = LINK_CHECK_TIMEOUT_MS,
  expect?: 'image',
  policy?: OutboundPolicy,
): Promise<LinkAnswer> {
  let answer: FirstByte;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    answer = policy ? await firstByteOfInput(url, signal, policy) : await firstByte(url, signal);
  } catch (error) {
    return { answers: false, why: describeFetchError(error), gone: false };
  }
  if ('refused' in answer) return { answers: false, why: answer.refused, gone: true };
  if (answer.status >= 200 && answer.status < 300) {
    if (expect !== 'image' || mayBeImage(answer.contentType)) return { answers: true };
    return { answers: false, why: `not an image (${answer.contentType})`, gone: true };
  }
  const gone = answer.status >= 400 && answer.status < 500 && !PASSING_CLIENT_ERRORS.has(answer.status);
  return { answers: false, why: `HTTP ${answer.status}`, gone };
}

function describeFetchError(error: unknown): string {
  const failure = error as Error & { cause?: { message?: string } };
  if (failure.name === 'TimeoutError') return 'no answer in time';
  // fetch wraps the system's error in its cause; undici's request raises it as it is.
  const code = failureCodes(error)[0];
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host is not found';
  if (code === 'ECONNRESET') return 'connection reset';
  return code ?? failure.cause?.message ?? failure.message;
}
