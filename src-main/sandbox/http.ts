import type { IncomingMessage, ServerResponse } from 'node:http';

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

/** The key sent in `x-api-key` or `Authorization: Bearer`; `x-api-key` wins when both are sent. */
export function presentedKey(req: IncomingMessage): string | null {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return bearer?.[1]?.trim() ?? null;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new HttpError(413, 'payload_too_large', 'The request body exceeds 1 MiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw.trim()) return {};
  if (contentType && !/^application\/json\b/i.test(contentType)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Bodies are JSON: Content-Type must be application/json, not ${contentType}.`,
    );
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** A body as the request log shows it: parsed JSON, else the raw text. */
export function loggedBody(raw: string): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function writeReply(res: ServerResponse, reply: Reply, malformed: boolean): void {
  if (!('json' in reply)) return;
  const text = JSON.stringify(reply.json);
  const body = malformed ? `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}<!-- truncated` : text;
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...reply.headers,
  });
  res.end(body);
}
