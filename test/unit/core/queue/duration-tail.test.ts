import { describe, expect, it } from 'vitest';
import { fitLogNormal, normalCdf, tailDurations } from '../../../../src-main/core/queue/duration-tail.ts';
import { seededLogNormal } from '../../../support/seeded-durations.ts';

// The tail of a class's durations past everything that ended (duration-tail.ts): a log-normal fitted to the
// durations that ended and to the jobs still running, counted as lasting at least what they outlasted.

const SEED = Number(process.env.ETA_SEED ?? 20261127);

describe('fitLogNormal', () => {
  it('finds the spread of a batch half done from its finished half and its running half', () => {
    console.info(`duration-tail seed ${SEED} (ETA_SEED=${SEED} replays it)`);
    const durations = seededLogNormal(SEED, 200, 60_000, 0.5);
    const cut = [...durations].sort((a, b) => a - b)[100]!;
    const done = durations.filter((ms) => ms < cut);
    const running = durations.filter((ms) => ms >= cut).map(() => cut);
    const fit = fitLogNormal(done, running)!;
    expect(Math.exp(fit.mu)).toBeGreaterThan(60_000 * 0.85);
    expect(Math.exp(fit.mu)).toBeLessThan(60_000 * 1.15);
    expect(fit.sigma).toBeGreaterThan(0.4);
    expect(fit.sigma).toBeLessThan(0.6);
    // Without the running half, what ended is the quickest half: a typical far too short, a spread too narrow.
    const finishedOnly = fitLogNormal(done, [])!;
    expect(Math.exp(finishedOnly.mu)).toBeLessThan(60_000 * 0.8);
    expect(finishedOnly.sigma).toBeLessThan(0.4);
  });

  it('fits nothing from too few durations, and keeps the spread in bounds', () => {
    expect(fitLogNormal([1000, 2000], [5000])).toBeNull();
    const same = fitLogNormal([1000, 1000, 1000, 1000, 1000], [])!;
    expect(same.sigma).toBeGreaterThan(0);
    // Five quick ones and many running far longer: any spread fits; it is not taken past one.
    const wild = fitLogNormal([1000, 1100, 1200, 1300, 1400], Array(50).fill(100_000))!;
    expect(wild.sigma).toBeLessThanOrEqual(1);
  });
});

describe('tailDurations', () => {
  it('spreads evenly over the share longer than a bound, all past it', () => {
    const fit = { mu: Math.log(60_000), sigma: 0.5 };
    const tail = tailDurations(fit, 60_000, 16);
    expect(tail).toHaveLength(16);
    expect(Math.min(...tail)).toBeGreaterThan(60_000);
    // Half of the tail past the median lies beyond its 75th percentile (z = 0.674).
    const p75 = Math.exp(Math.log(60_000) + 0.5 * 0.674);
    expect(tail.filter((ms) => ms > p75)).toHaveLength(8);
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
  });
});
