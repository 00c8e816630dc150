/** What a route answers; the server writes it (or a fault rule mangles it). */
export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; file: string; contentType: string };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, json: body, headers } : { status, json: body };
}

export function errorReply(error: HttpError): Reply {
  return json(error.status, { error: { code: error.code, message: error.message } }, error.headers);
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** A path segment as the client meant it; a malformed escape cannot name anything, so it is a 404. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, 'not_found', `No resource with id ${segment}.`);
  }
}
