import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

// A tool that waits for long work (a batch to its end, an export, videos) reports, stops, and never outlasts
// its client (issue 30, point 3). The SDK's client gives up on a request after 60 s by default (and a client
// that resets its timeout on progress still has a total limit): a tool waits at most LONG_WAIT_MS, then
// answers with the work as it is and the tool to poll. While it waits it sends `notifications/progress`
// when the client asked for them (a `progressToken` in the request's `_meta`), and it stops waiting when the
// client cancels the request (`notifications/cancelled` aborts `extra.signal`).

/** The longest a tool waits before it answers: well under the SDK's default request timeout of 60 s. */
export const LONG_WAIT_MS = 45_000;

/** How often the work is read again while a tool waits. */
const READ_EVERY_MS = 250;

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Where the work stands: how much of how much (total unknown: null), in words for the client to show. */
export interface Progress {
  done: number;
  total: number | null;
  message: string;
}

export interface Waited<T> {
  /** The work as last read. */
  value: T;
  /** Why the wait ended: the work ended, the time ran out, or the client cancelled the request. */
  outcome: 'ended' | 'time' | 'cancelled';
}

/** The seconds a caller asked to wait, capped at LONG_WAIT_MS; LONG_WAIT_MS when it did not say. */
export function waitMs(seconds: number | undefined): number {
  return seconds === undefined ? LONG_WAIT_MS : Math.min(LONG_WAIT_MS, Math.max(0, seconds * 1000));
}

/**
 * Reads the work until it has ended, the wait is over or the client cancels, sending its progress (when it
 * moved) to a client that asked for it. A notification that cannot be sent (the client went away) does not
 * end the wait: the cancellation does.
 */
export async function waitForWork<T>(options: {
  read: () => Promise<T>;
  ended: (value: T) => boolean;
  progress: (value: T) => Progress;
  extra: Pick<ToolExtra, 'signal' | '_meta' | 'sendNotification'>;
  limitMs: number;
}): Promise<Waited<T>> {
  const { read, ended, progress, extra, limitMs } = options;
  const token = extra._meta?.progressToken;
  let last = '';
  const report = async (value: T) => {
    if (token === undefined) return;
    const now = progress(value);
    const key = `${now.done}/${now.total}/${now.message}`;
    if (key === last) return;
    last = key;
    await extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: now.done,
          ...(now.total === null ? {} : { total: now.total }),
          message: now.message,
        },
      })
      .catch(() => {});
  };
  const deadline = Date.now() + limitMs;
  let value = await read();
  for (;;) {
    if (extra.signal.aborted) return { value, outcome: 'cancelled' };
    await report(value);
    if (ended(value)) return { value, outcome: 'ended' };
    const left = deadline - Date.now();
    if (left <= 0) return { value, outcome: 'time' };
    try {
      await sleep(Math.min(READ_EVERY_MS, left), undefined, { signal: extra.signal });
    } catch {
      return { value, outcome: 'cancelled' };
    }
    value = await read();
  }
}
