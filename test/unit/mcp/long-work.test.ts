import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LONG_WAIT_MS, waitForWork, waitMs } from '../../../src-main/mcp/long-work.ts';

// The wait every long MCP tool uses (issue 30, point 3): it reports progress only to a client that asked,
// each change once; a cancelled request ends it at once, mid-wait; it never waits past its limit, which is
// capped well under the SDK client's 60 s request timeout.

function extraFor(progressToken?: string) {
  const sent: ServerNotification[] = [];
  const controller = new AbortController();
  return {
    sent,
    controller,
    extra: {
      signal: controller.signal,
      ...(progressToken ? { _meta: { progressToken } } : {}),
      sendNotification: async (notification: ServerNotification) => {
        sent.push(notification);
      },
    },
  };
}

describe('waitForWork', () => {
  it('caps every wait well under the SDK client’s 60 s timeout', () => {
    expect(LONG_WAIT_MS).toBeLessThan(60_000);
    expect(waitMs(undefined)).toBe(LONG_WAIT_MS);
    expect(waitMs(600)).toBe(LONG_WAIT_MS);
    expect(waitMs(0)).toBe(0);
    expect(waitMs(2)).toBe(2000);
  });

  it('reports each change of progress once to a client that asked, until the work ends', async () => {
    const { sent, extra } = extraFor('token-1');
    const steps = [0, 0, 1, 1, 2, 3];
    let at = 0;
    const waited = await waitForWork({
      read: async () => steps[Math.min(at++, steps.length - 1)]!,
      ended: (done) => done === 3,
      progress: (done) => ({ done, total: 3, message: `${done} of 3` }),
      extra,
      limitMs: LONG_WAIT_MS,
    });
    expect(waited).toEqual({ value: 3, outcome: 'ended' });
    expect(sent.map((one) => one.params)).toEqual(
      [0, 1, 2, 3].map((done) => ({
        progressToken: 'token-1',
        progress: done,
        total: 3,
        message: `${done} of 3`,
      })),
    );
  });

  it('sends nothing to a client that asked for no progress', async () => {
    const { sent, extra } = extraFor();
    let reads = 0;
    const waited = await waitForWork({
      read: async () => ++reads,
      ended: (value) => value === 3,
      progress: (value) => ({ done: value, total: null, message: 'working' }),
      extra,
      limitMs: LONG_WAIT_MS,
    });
    expect(waited.outcome).toBe('ended');
    expect(sent).toEqual([]);
  });

  it('stops waiting as soon as the client cancels, mid-wait', async () => {
    const { controller, extra } = extraFor('token-2');
    const waiting = waitForWork({
      read: async () => 'running',
      ended: () => false,
      progress: () => ({ done: 0, total: null, message: 'running' }),
      // Cancellation arrives during the first pause between reads: the wait ends then, not at its limit.
      extra: {
        ...extra,
        sendNotification: async () => {
          controller.abort();
        },
      },
      limitMs: LONG_WAIT_MS,
    });
    expect(await waiting).toEqual({ value: 'running', outcome: 'cancelled' });
  });

  it('answers with the work as it is when the wait is over', async () => {
    const { extra } = extraFor();
    let reads = 0;
    const waited = await waitForWork({
      read: async () => ++reads,
      ended: () => false,
      progress: (value) => ({ done: value, total: null, message: 'running' }),
      extra,
      limitMs: 0,
    });
    expect(waited).toEqual({ value: 1, outcome: 'time' });
  });
});
