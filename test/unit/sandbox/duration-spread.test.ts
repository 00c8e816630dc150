import { describe, expect, it } from 'vitest';
import { durationFactor, parseDurationSpread } from '../../../src-main/sandbox/duration-spread.ts';

// The sandbox's `--durations`: steady by default, a log-normal spread, or a slow tail of a given share and
// factor, each parsed from its words and drawn as documented.

/** A generator walking through [0, 1) evenly (golden-ratio steps), so that draws cover the distribution. */
function even(): () => number {
  let index = 0;
  return () => (index++ * 0.618_034) % 1;
}

describe('duration spreads', () => {
  it('parses steady, wide and slow-tail:<share>x<factor>, and refuses anything else', () => {
    expect(parseDurationSpread('steady')).toEqual({ kind: 'steady' });
    expect(parseDurationSpread(' wide ')).toEqual({ kind: 'wide' });
    expect(parseDurationSpread('slow-tail:0.1x4')).toEqual({ kind: 'slow-tail', share: 0.1, factor: 4 });
    for (const wrong of ['slow', 'slow-tail:2x4', 'slow-tail:0.1x0.5', 'slow-tail:0.1']) {
      expect(() => parseDurationSpread(wrong), wrong).toThrow(/steady, wide or slow-tail/);
    }
  });

  it('slows the given share of jobs by the factor, spreads wide around 1, and leaves steady alone', () => {
    const random = even();
    const tail = Array.from({ length: 1000 }, () =>
      durationFactor(parseDurationSpread('slow-tail:0.1x4'), random),
    );
    expect(tail.filter((factor) => factor === 4).length).toBeGreaterThan(80);
    expect(tail.filter((factor) => factor === 4).length).toBeLessThan(120);
    expect(tail.every((factor) => factor === 1 || factor === 4)).toBe(true);
    const wide = Array.from({ length: 1000 }, () => durationFactor({ kind: 'wide' }, Math.random)).sort(
      (a, b) => a - b,
    );
    expect(wide[500]).toBeGreaterThan(0.85);
    expect(wide[500]).toBeLessThan(1.15);
    expect(wide[950]).toBeGreaterThan(1.8);
    expect(durationFactor({ kind: 'steady' }, Math.random)).toBe(1);
  });
});
