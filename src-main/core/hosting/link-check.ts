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

/**
 * Asks for the URL's first byte; anything but a 2xx within the timeout is a URL that does not answer. With
 * `image`, a 2xx whose content type cannot be an image (an error page served as 200) does not either.
 */
export async function checkLink(
  url: string,
  timeoutMs = LINK_CHECK_TIMEOUT_MS,
  expect?: 'image',
): Promise<LinkAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { range: 'bytes=0-0' },
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { answers: false, why: describeFetchError(error), gone: false };
  }
  await response.body?.cancel().catch(() => {});
  if (response.ok) {
    const contentType = response.headers.get('content-type');
    if (expect !== 'image' || mayBeImage(contentType)) return { answers: true };
    return { answers: false, why: `not an image (${contentType})`, gone: true };
  }
  const gone = response.status >= 400 && response.status < 500 && !PASSING_CLIENT_ERRORS.has(response.status);
  return { answers: false, why: `HTTP ${response.status}`, gone };
}

function describeFetchError(error: unknown): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return 'no answer in time';
  const code = failure.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host is not found';
  if (code === 'ECONNRESET') return 'connection reset';
  return code ?? failure.cause?.message ?? failure.message;
}
