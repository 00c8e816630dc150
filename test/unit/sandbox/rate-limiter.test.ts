import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimiter } from '../../../src-main/sandbox/rate-limiter.ts';

describe('parseRateLimit', () => {
  it('reads N/Ws, fractional seconds included', () => {
    expect(parseRateLimit('60/60s')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parseRateLimit('600/6s')).toEqual({ limit: 600, windowMs: 6_000 });
    expect(parseRateLimit('60/0.6s')).toEqual({ limit: 60, windowMs: 600 });
  });

  it.each(['60', '60/60', 'sixty/60s', '0/60s', '60/0s', ''])('refuses %j with the expected form', (text) => {
    expect(() => parseRateLimit(text)).toThrow(/N\/Ws/);
  });
});

describe('RateLimiter', () => {
  it('accepts `limit` requests in any rolling window, then says how long until a slot frees', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 3, windowMs: 1000 }, () => now);
    expect([limiter.take('k'), limiter.take('k')]).toEqual([0, 0]);
    now = 400;
    expect(limiter.take('k')).toBe(0);
    expect(limiter.take('k')).toBe(600);
    now = 1000;
    expect(limiter.take('k')).toBe(0);
    expect(limiter.take('k')).toBe(400);
    now = 1400;
    expect(limiter.take('k')).toBe(0);
  });

  it('keeps one window per key', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, () => 0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('b')).toBe(0);
    expect(limiter.take('a')).toBe(1000);
  });

  it('counts refused requests: a client that keeps knocking stays refused until it stops for a window', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000 }, () => now);
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
    // Without counting refusals, the knock at 1000 would pass: both accepted requests have aged out.
    for (now = 200; now <= 2000; now += 200) expect(limiter.take('a')).toBe(800);
    now = 2800;
    expect(limiter.take('a')).toBe(0);
  });
});
