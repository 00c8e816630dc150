import { describe, expect, it } from 'vitest';
import {
  parseRateLimit,
  type RateLimit,
  RequestBudget,
  SERVICE_RATE_LIMIT,
} from '../../../../src-main/core/scheduler/budget.ts';
import { databasePerTest } from '../../../support/database-per-test.ts';

// The slack budget.ts documents: 1% of the window, at least 250 ms.
const slackOf = (rate: RateLimit) => Math.max(Math.round(rate.windowMs * 0.01), 250);

const SMALL: RateLimit = { limit: 5, windowMs: 1_000 };
const SMALL_WINDOW = SMALL.windowMs + slackOf(SMALL); // 1250

const T0 = 1_700_000_000_000;
/** The window alone; pacing is tested on its own below. */
const UNPACED = 1;

const temp = databasePerTest(T0);
const { clock, now } = temp;

function logged(key = 'key-a'): number[] {
  return (
    temp.db.prepare('SELECT at FROM request_log WHERE key_id = ? ORDER BY at').all(key) as Array<{
      at: number;
    }>
  ).map((row) => row.at);
}

/** Sends one request through the budget now: take a slot and stamp it at once. */
function send(budget: RequestBudget): void {
  expect(budget.waitMs()).toBe(0);
  budget.take()();
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseRateLimit', () => {
  it('reads N/Ws and refuses anything else', () => {
    expect(parseRateLimit('60/60s')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parseRateLimit(' 60/0.6s ')).toEqual({ limit: 60, windowMs: 600 });
    for (const bad of ['60', '60/60', '0/60s', '60/0s', 'x/1s', '60/60m'])
      expect(() => parseRateLimit(bad)).toThrow();
  });
});

describe('RequestBudget', () => {
  it('never lets more than the limit leave in any window widened by the slack', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SMALL, now, UNPACED);
    const next = random(7);
    for (let sent = 0; sent < 200; sent++) {
      // Requests are asked for at irregular moments; the budget makes them wait when they must.
      clock.now += Math.floor(next() * 40);
      clock.now += budget.waitMs();
      const stamp = budget.take();
      clock.now += Math.floor(next() * 3); // preparing the request
      stamp();
    }
    const times = logged();
    expect(times).toHaveLength(200);
    for (let index = 0; index + SMALL.limit < times.length; index++) {
      expect(times[index + SMALL.limit]! - times[index]!).toBeGreaterThanOrEqual(SMALL_WINDOW);
    }
    // ... and it does not throttle needlessly: 200 requests at 5 per window take about 40 windows.
    expect(times.at(-1)! - times[0]!).toBeLessThan(42 * SMALL_WINDOW);
  });

  it('waitMs is exactly the time until the oldest request in the window leaves it', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SMALL, now, UNPACED);
    expect(budget.available()).toBe(5);
    for (let index = 0; index < 5; index++) {
      send(budget);
      clock.now += 100;
    }
    expect(budget.available()).toBe(0);
    // Five stamps at T0 .. T0 + 400; now T0 + 500. The first leaves the widened window at T0 + 1250.
    const wait = budget.waitMs();
    expect(wait).toBeGreaterThanOrEqual(SMALL_WINDOW - 500);
    expect(wait).toBeLessThanOrEqual(SMALL_WINDOW - 500 + 1);

    const start = clock.now;
    clock.now = start + wait - 2;
    expect(budget.waitMs()).toBeGreaterThan(0);
    expect(budget.available()).toBe(0);
    clock.now = start + wait;
    expect(budget.waitMs()).toBe(0);
    expect(budget.available()).toBe(1);
    send(budget);
    // The next slot frees when the second request (T0 + 100) leaves the window.
    expect(budget.waitMs()).toBeGreaterThanOrEqual(T0 + 100 + SMALL_WINDOW - clock.now);
    expect(budget.waitMs()).toBeLessThanOrEqual(T0 + 100 + SMALL_WINDOW - clock.now + 1);
  });

  it('persists every sent request: a new budget on the same database cannot burst (restart safety)', () => {
    const first = new RequestBudget(temp.db, 'key-a', SMALL, now, UNPACED);
    for (let index = 0; index < 4; index++) {
      send(first);
      clock.now += 50;
    }
    // A slot taken but never stamped: the request never left, so nothing is recorded for it.
    first.take();
    temp.reopen();
    const restarted = new RequestBudget(temp.db, 'key-a', SMALL, now, UNPACED);
    expect(restarted.available()).toBe(1);
    send(restarted);
    expect(restarted.available()).toBe(0);
    expect(restarted.waitMs()).toBeGreaterThanOrEqual(T0 + SMALL_WINDOW - clock.now);
    expect(restarted.waitMs()).toBeLessThanOrEqual(T0 + SMALL_WINDOW - clock.now + 1);
    // Another key has its own budget.
    expect(new RequestBudget(temp.db, 'key-b', SMALL, now, UNPACED).available()).toBe(5);
    // A restart a whole window later starts with the full budget.
    clock.now += SMALL_WINDOW + 1_000;
    expect(new RequestBudget(temp.db, 'key-a', SMALL, now, UNPACED).available()).toBe(5);
  });

  it('gives back a slot whose request never left, and keeps a sent one when released after', () => {
    const budget = new RequestBudget(temp.db, 'key-a', { limit: 1, windowMs: 1_000 }, now, UNPACED);
    const failed = budget.take();
    expect(budget.available()).toBe(0);
    failed.release();
    expect(budget.available()).toBe(1);
    expect(budget.waitMs()).toBe(0);
    const sent = budget.take();
    sent();
    sent.release();
    expect(budget.available()).toBe(0);
    expect(logged()).toEqual([T0]);
  });

  it('take() returns a stamp that moves the slot to the send time and writes the row', () => {
    const budget = new RequestBudget(temp.db, 'key-a', { limit: 1, windowMs: 1_000 }, now, UNPACED);
    const stamp = budget.take();
    expect(budget.available()).toBe(0);
    expect(logged()).toEqual([]);
    clock.now += 70;
    stamp();
    expect(logged()).toEqual([T0 + 70]);
    // The window is counted from when the request left, not from when its slot was taken.
    const wait = budget.waitMs();
    expect(wait).toBeGreaterThanOrEqual(SMALL_WINDOW);
    expect(wait).toBeLessThanOrEqual(SMALL_WINDOW + 1);
  });

  // BUG (budget.ts prune/take): a slot taken but not yet stamped is pruned once its take time is a window old, so
  // a request prepared for longer than a window (a slow photo upload) is not counted when it finally leaves.
  it('still counts a slot whose request is prepared for longer than a window', () => {
    const budget = new RequestBudget(temp.db, 'key-a', { limit: 2, windowMs: 1_000 }, now, UNPACED);
    const slow = budget.take(); // its request is being prepared
    send(budget);
    clock.now += SMALL_WINDOW + 1;
    // The slow request has not left yet: at most one more may be sent in its window.
    while (budget.waitMs() === 0) send(budget);
    clock.now += 10;
    slow();
    const times = logged();
    const recent = times.filter((at) => at > clock.now - 1_000);
    expect(recent.length).toBeLessThanOrEqual(2);
  });

  it('a 429 blocks for Retry-After and halves the allowed rate; a quiet window restores it', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SERVICE_RATE_LIMIT, now, UNPACED);
    budget.rateLimited(5_000);
    expect(budget.waitMs()).toBe(5_000);
    expect(budget.available()).toBe(0);
    clock.now += 4_999;
    expect(budget.waitMs()).toBe(1);
    clock.now += 1;
    expect(budget.waitMs()).toBe(0);
    expect(budget.available()).toBe(30);
    for (let index = 0; index < 10; index++) send(budget);
    expect(budget.available()).toBe(20);

    // A second 429 in a row, no Retry-After: a 2 s backoff (1 s doubled), and a quarter of the rate.
    const second = clock.now;
    budget.rateLimited(null);
    expect(budget.waitMs()).toBe(2_000);
    clock.now += 2_000;
    expect(budget.available()).toBe(15 - 10);
    for (let index = 0; index < 5; index++) send(budget);
    expect(budget.available()).toBe(0);
    expect(budget.waitMs()).toBeGreaterThan(50_000);

    // A whole window after the last 429, with no other, the full rate is back (the 15 sent still count).
    clock.now = second + SERVICE_RATE_LIMIT.windowMs;
    expect(budget.available()).toBe(0);
    clock.now += 1;
    expect(budget.available()).toBe(60 - 15);
    expect(budget.waitMs()).toBe(0);
  });

  it('backs off exponentially without Retry-After, capped at one window, never below one request', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SERVICE_RATE_LIMIT, now, UNPACED);
    const waits: number[] = [];
    for (let index = 0; index < 10; index++) {
      budget.rateLimited(null);
      waits.push(budget.waitMs());
      clock.now += budget.waitMs();
    }
    expect(waits.slice(0, 6)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(waits.slice(6)).toEqual([60_000, 60_000, 60_000, 60_000]);
    expect(budget.available()).toBe(1);
    // A longer Retry-After wins over the backoff.
    budget.rateLimited(90_000);
    expect(budget.waitMs()).toBe(90_000);
  });

  it('a shorter Retry-After does not cut a longer block short', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SERVICE_RATE_LIMIT, now, UNPACED);
    budget.rateLimited(20_000);
    clock.now += 1_000;
    budget.rateLimited(1);
    expect(budget.waitMs()).toBe(19_000);
  });

  it('compact deletes only rows no window can need, and only for its key', () => {
    const rate: RateLimit = { limit: 100, windowMs: 1_000 };
    const window = rate.windowMs + slackOf(rate);
    const budget = new RequestBudget(temp.db, 'key-a', rate, now, UNPACED);
    const other = new RequestBudget(temp.db, 'key-b', rate, now, UNPACED);
    const times = [0, 1, window - 1, window, window + 1, 2 * window, 3 * window];
    for (const at of times) {
      clock.now = T0 + at;
      budget.take()();
      other.take()();
    }
    clock.now = T0 + 3 * window;
    budget.compact();
    // Rows at or before now - 2 windows go.
    expect(logged('key-a')).toEqual([window + 1, 2 * window, 3 * window].map((at) => T0 + at));
    expect(logged('key-b')).toHaveLength(times.length);
    // Compacting never changes what the budget allows.
    expect(new RequestBudget(temp.db, 'key-a', rate, now, UNPACED).available()).toBe(budget.available());
  });

  it('paces past half the allowance: a sixth of it in any sixth of the window, the same average rate', () => {
    const budget = new RequestBudget(temp.db, 'key-a', SERVICE_RATE_LIMIT, now);
    let burst = 0;
    while (budget.waitMs() === 0) {
      send(budget);
      burst++;
    }
    expect(burst).toBe(30);
    expect(budget.waitMs()).toBeGreaterThan(10_000);
    // Over a whole window, the full 60 still go out.
    const start = clock.now;
    let sent = burst;
    while (clock.now - start < SERVICE_RATE_LIMIT.windowMs) {
      clock.now += budget.waitMs() || 1;
      if (budget.waitMs() === 0) {
        send(budget);
        sent++;
      }
    }
    expect(sent).toBeGreaterThanOrEqual(60);
  });
});
