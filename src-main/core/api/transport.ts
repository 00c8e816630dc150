import type { Dispatcher } from 'undici';
import type { CallContext } from './call-context.ts';
import { networkError } from './network-errors.ts';

// One HTTP exchange, exactly one attempt: retries are the scheduler's decision, because only it knows the
// request budget and whether re-sending a create could charge twice. The timeout covers the whole
// exchange, from connecting to the last byte of the body.

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The answer's body; only its first MAX_ANSWER_BYTES when it went on past them (`cutOff`). */
  body: string;
  cutOff: boolean;
}

/**
 * Guess: more than any answer of the service can be (its longest, a page of usage, is some KB). A body that
 * goes on past it is not read into memory: a service answering garbage, or a body that never ends within
 * the timeout, would otherwise take this computer's memory with it.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

async function readCapped(body: AsyncIterable<Buffer>): Promise<{ text: string; cutOff: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    // Leaving the loop destroys the body: the rest is never read.
    if (size > MAX_ANSWER_BYTES) return { text: Buffer.concat(chunks).toString('utf8'), cutOff: true };
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cutOff: false };
}

export interface ExchangeOptions {
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

export async function exchange(options: ExchangeOptions, call: CallContext): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    // Imported on first use: loading undici takes about 100 ms, which a command that never calls the
    // service (`adbatch status`) should not pay at startup (util/load-sharp.ts says the same of sharp).
    const { request } = await import('undici');
    const response = await request(options.url, {
      method: call.method,
      headers: options.headers,
      body: options.body,
      signal: controller.signal,
      dispatcher: options.dispatcher,
    });
    const { text, cutOff } = await readCapped(response.body);
    return { status: response.statusCode, headers: response.headers, body: text, cutOff };
  } catch (error) {
    throw networkError(error, call, options.url.host, { timedOut, ms: options.timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}
