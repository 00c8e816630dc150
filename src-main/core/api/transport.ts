import type { Dispatcher } from 'undici';
import type { CallContext } from './call-context.ts';
import { networkError } from './network-errors.ts';

// One HTTP exchange, exactly one attempt: retries are the scheduler's decision, because only it knows the
// request budget and whether re-sending a create could charge twice. The timeout covers the whole
// exchange, from connecting to the last byte of the body.

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
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
    const body = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body };
  } catch (error) {
    throw networkError(error, call, options.url.host, { timedOut, ms: options.timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}
