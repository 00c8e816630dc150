import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../../../src-main/core/api/index.ts';
import { type RateLimit, RequestBudget } from '../../../../src-main/core/scheduler/budget.ts';
import { databasePerTest } from '../../../support/database-per-test.ts';

// What budget.ts documents: a request followed to its answer counts as leaving now until it is answered,
// then from its answer, with a margin of 0.1% of the window (at least 5 ms); one whose answer never came
// counts from when it gave up, with the slack (1% of the window, at least 250 ms). Every budget of a key on
// one database shares what was sent and the 429s.

const ONE: RateLimit = { limit: 1, windowMs: 1_000 };
const SLACK = 250;
const MARGIN = 5;
const T0 = 1_700_000_000_000;
const UNPACED = 1;

const temp = databasePerTest(T0);
const { clock, now } = temp;

function logged(): number[] {
  return (temp.db.prepare('SELECT at FROM request_log ORDER BY at').all() as Array<{ at: number }>).map(
    (row) => row.at,
  );
}

/** A request the test answers (or fails) when it likes. */
function pendingRequest<T>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { request: () => promise, ...settle };
}

describe('a request followed to its answer', () => {
  it('counts as leaving now while on its way, then from its answer, and a restart counts it as long', async () => {
    const budget = new RequestBudget(temp.db, 'key-a', ONE, now, UNPACED);
    const answer = pendingRequest<string>();
    const sent = budget.take().send(answer.request);
    expect(logged()).toEqual([T0]);
    // 400 ms on its way (a busy service): the window cannot have started before now.
    clock.now += 400;
    expect(budget.waitMs()).toBe(ONE.windowMs + SLACK + 1);
    answer.resolve('ok');
    expect(await sent).toBe('ok');
    // Answered at T0 + 400: counted from there, with the small margin instead of the slack.
    expect(budget.waitMs()).toBe(ONE.windowMs + MARGIN + 1);
    // The row moved so that a restarted budget (which adds the slack) waits as long.
    expect(logged()).toEqual([T0 + 400 + MARGIN - SLACK]);
    temp.reopen();
    expect(new RequestBudget(temp.db, 'key-a', ONE, now, UNPACED).waitMs()).toBe(ONE.windowMs + MARGIN + 1);
  });

  it('a quick answer leaves the row at its send time, already counted long enough by the slack', async () => {
    const budget = new RequestBudget(temp.db, 'key-a', ONE, now, UNPACED);
    const answer = pendingRequest<number>();
    const sent = budget.take().send(answer.request);
    clock.now += 20;
    answer.resolve(1);
    await sent;
    expect(logged()).toEqual([T0]);
    expect(budget.waitMs()).toBe(ONE.windowMs + MARGIN + 1);
  });

  it('one whose answer never came counts from when it gave up, with the slack', async () => {
    const budget = new RequestBudget(temp.db, 'key-a', ONE, now, UNPACED);
    const answer = pendingRequest<never>();
    const sent = budget.take().send(answer.request);
    clock.now += 3_000;
    answer.reject(new Error('timed out'));
    await expect(sent).rejects.toThrow('timed out');
    expect(budget.waitMs()).toBe(ONE.windowMs + SLACK + 1);
    expect(logged()).toEqual([T0 + 3_000]);
  });

  it('send() waits for a slot, and a 429 slows the key down', async () => {
    const rate: RateLimit = { limit: 2, windowMs: 40 };
    const budget = new RequestBudget(temp.db, 'key-a', rate, Date.now, UNPACED);
    const started = Date.now();
    for (let index = 0; index < 3; index++) await budget.send(async () => index);
    // The third waited for the first, answered, to leave the window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(rate.windowMs);
    await expect(
      budget.send(async () => {
        throw new RateLimitedError('slow down', {
          status: 429,
          maybeSent: false,
          operation: 'GET /v1/credits',
          retryAfterMs: 5_000,
        });
      }),
    ).rejects.toBeInstanceOf(RateLimitedError);
    expect(budget.waitMs()).toBeGreaterThan(4_900);
  });
});

describe('budgets of one key on one database', () => {
  it('share what was sent: a new engine counts the slot a request of the old one still holds', () => {
    const old = new RequestBudget(temp.db, 'key-a', { limit: 2, windowMs: 1_000 }, now, UNPACED);
    const waiting = old.take(); // a balance check of the old engine, being prepared
    const restarted = new RequestBudget(temp.db, 'key-a', { limit: 2, windowMs: 1_000 }, now, UNPACED);
    expect(restarted.available()).toBe(1);
    restarted.take()();
    expect(restarted.waitMs()).toBeGreaterThan(0);
    waiting();
    expect(logged()).toEqual([T0, T0]);
    // Another key is another budget.
    expect(new RequestBudget(temp.db, 'key-b', ONE, now, UNPACED).available()).toBe(1);
  });

  it('share a 429: the key was refused, not one budget', () => {
    const first = new RequestBudget(temp.db, 'key-a', { limit: 60, windowMs: 60_000 }, now, UNPACED);
    const second = new RequestBudget(temp.db, 'key-a', { limit: 60, windowMs: 60_000 }, now, UNPACED);
    first.rateLimited(5_000);
    expect(second.waitMs()).toBe(5_000);
    clock.now += 5_000;
    expect(second.available()).toBe(30);
  });

  it('a budget with a longer window reads the older rows a shorter one did not need', () => {
    for (const at of [T0 - 5_000, T0 - 500]) {
      temp.db.prepare('INSERT INTO request_log (key_id, at) VALUES (?, ?)').run('key-a', at);
    }
    const short = new RequestBudget(temp.db, 'key-a', { limit: 5, windowMs: 1_000 }, now, UNPACED);
    expect(short.available()).toBe(4);
    const long = new RequestBudget(temp.db, 'key-a', { limit: 5, windowMs: 10_000 }, now, UNPACED);
    expect(long.available()).toBe(3);
    expect(short.available()).toBe(4);
  });
});
