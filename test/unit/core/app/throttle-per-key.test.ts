import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { throttlePerKey } from '../../../../src-main/core/app/events.ts';

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // A progress read from a loaded database: the event loop is held for this long.
  }
}

describe('throttlePerKey', () => {
  it('spaces deliveries by the interval even when making an event takes longer one time than the next', async () => {
    const delivered: number[] = [];
    let made = 0;
    const throttle = throttlePerKey(100, () => {
      busy(made++ % 2 === 0 ? 60 : 5);
      delivered.push(Date.now());
    });
    const until = Date.now() + 900;
    while (Date.now() < until) {
      throttle.touch('batch');
      await sleep(10);
    }
    throttle.flush();
    expect(delivered.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < delivered.length - 1; i++) {
      expect(delivered[i]! - delivered[i - 1]!).toBeGreaterThanOrEqual(100);
    }
  });

  it('keeps the last state: a touch inside the interval is delivered once, when it has passed', async () => {
    const delivered: string[] = [];
    const throttle = throttlePerKey(50, (key) => delivered.push(key));
    throttle.touch('a');
    throttle.touch('a');
    throttle.touch('a');
    throttle.touch('b');
    expect(delivered).toEqual(['a', 'b']);
    await sleep(80);
    expect(delivered).toEqual(['a', 'b', 'a']);
    await sleep(80);
    throttle.touch('a');
    expect(delivered).toEqual(['a', 'b', 'a', 'a']);
  });

  it('delivers a change at once when asked, and drops the trailing call it made needless', async () => {
    const delivered: string[] = [];
    const throttle = throttlePerKey(50, (key) => delivered.push(key));
    throttle.touch('a');
    throttle.touch('a');
    throttle.now('a');
    expect(delivered).toEqual(['a', 'a']);
    throttle.now('a');
    expect(delivered).toEqual(['a', 'a', 'a']);
    await sleep(80);
    expect(delivered).toEqual(['a', 'a', 'a']);
  });
});
