import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { checkOutbound, type OutboundPolicy, type ResolvedAddress } from './outbound-policy.ts';

// A GET of an input's URL under the outbound policy: each hop is checked (`outbound-policy.ts`) before it is
// asked, redirects are followed here, one at a time, so a public host cannot bounce the request onto the
// office network, and the connection goes to the very address that was checked (a dispatcher whose lookup
// answers only that address; the TLS name and the Host header stay the URL's), so a DNS that answers one
// address to the check and another to the connect changes nothing.

/** Guess: real photo hosts and CDNs redirect once or twice (http to https, a short link, a signed URL). */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OutboundAnswer {
  /** The URL that answered, after redirects. */
  url: string;
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Dispatcher.ResponseData['body'];
  /** Drops the rest of the body and the connection: call it once done with the answer, whatever it was. */
  close(): Promise<void>;
}

export type OutboundResult = { ok: true; answer: OutboundAnswer } | { ok: false; reason: string };

export interface OutboundRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Time allowed for an answer's headers, then between two chunks of its body (undici's default otherwise). */
  timeoutMs?: number;
}

/** A lookup that knows one answer: the address the policy checked. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

/**
 * GETs `url`, following redirects that pass the policy; the refusal (of the URL or of a hop) comes back in
 * words. A network failure (refused, reset, timed out) throws as undici raised it.
 */
export async function fetchOutbound(
  url: string,
  policy: OutboundPolicy,
  request: OutboundRequest = {},
): Promise<OutboundResult> {
  // Imported on first use, not at startup (api/transport.ts says why).
  const { Agent, request: send } = await import('undici');
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, reason: `${url} is not a URL` };
  }
  for (let hop = 0; ; hop++) {
    const check = await checkOutbound(current, policy);
    if (!check.ok) {
      return { ok: false, reason: hop === 0 ? check.reason : `${url} redirects to ${check.reason}` };
    }
    const agent = new Agent({ connect: { lookup: pinnedLookup(check.pinned) } });
    let response: Dispatcher.ResponseData;
    try {
      response = await send(current, {
        method: 'GET',
        dispatcher: agent,
        ...(request.headers ? { headers: request.headers } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.timeoutMs ? { headersTimeout: request.timeoutMs, bodyTimeout: request.timeoutMs } : {}),
      });
    } catch (error) {
      await agent.destroy().catch(() => {});
      throw error;
    }
    const close = async () => {
      // Destroying a body not read to its end raises "aborted" on it: that is what was asked for.
      response.body.on('error', () => {});
      response.body.destroy();
      await agent.destroy().catch(() => {});
    };
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') {
      return {
        ok: true,
        answer: {
          url: current.href,
          statusCode: response.statusCode,
          headers: response.headers,
          body: response.body,
          close,
        },
      };
    }
    await close();
    if (hop >= MAX_REDIRECTS) {
      return { ok: false, reason: `${url} redirects more than ${MAX_REDIRECTS} times` };
    }
    try {
      current = new URL(location, current);
    } catch {
      return { ok: false, reason: `${url} redirects to something that is not a URL (${location})` };
    }
  }
}
