import { describe, expect, it } from 'vitest';
import { type Bracket, durationsOf, exactly } from '../../../../src-main/core/scheduler/brackets.ts';
import { seededLogNormal } from '../../../support/seeded-durations.ts';

const quantile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** The bracket polls at `pollsMs` (ascending) see of a job that takes `durationMs`: the last running, the first done. */
function seen(durationMs: number, pollsMs: readonly number[]): Bracket {
  const done = pollsMs.find((at) => at >= durationMs)!;
  const running = pollsMs.filter((at) => at < durationMs).at(-1) ?? 0;
  return { loMs: running, hiMs: done };
}

/** Polls from `firstMs` on, `gapMs` apart, until one finds the job done. */
const pollsFrom = (durationMs: number, firstMs: number, gapMs: number) => {
  const polls = [firstMs];
  while (polls.at(-1)! < durationMs) polls.push(polls.at(-1)! + gapMs);
  return polls;
};

describe('durationsOf', () => {
  it('gives exact durations back as they are, ascending', () => {
    expect(durationsOf([30_000, 10_000, 20_000].map(exactly))).toEqual([10_000, 20_000, 30_000]);
    expect(durationsOf([])).toEqual([]);
  });

  it('shares a wide bracket among the narrow ones it holds, in their proportions', () => {
    const narrow = [
      { loMs: 9_000, hiMs: 10_000 },
      { loMs: 9_000, hiMs: 10_000 },
      { loMs: 19_000, hiMs: 20_000 },
    ];
    // Done by 25 s, with no poll before: as likely near 9.5 s as the narrow ones say, twice as likely as 19.5 s.
    const wide = { loMs: 0, hiMs: 25_000 };
    const durations = durationsOf([...narrow, wide, wide, wide]);
    expect(durations).toHaveLength(6);
    expect(durations.slice(0, 4).every((ms) => ms > 8_000 && ms < 11_000)).toBe(true);
    expect(durations.slice(4).every((ms) => ms > 18_000 && ms < 21_000)).toBe(true);
  });

  it('spreads jobs no poll ever found running below the earliest "done by", down to a quarter of it', () => {
    const durations = durationsOf([
      { loMs: 0, hiMs: 20_000 },
      { loMs: 0, hiMs: 14_000 },
      { loMs: 0, hiMs: 30_000 },
    ]);
    expect(durations[0]).toBeGreaterThan(14_000 / 4);
    expect(durations[2]).toBeLessThan(14_000);
    // Half way (in log) between a quarter of 14 s and 14 s.
    expect(Math.abs(durations[1]! - 7_000) / 7_000).toBeLessThan(0.2);
  });

  it('recovers a spread from brackets of polls begun at varied moments (seeded log-normal)', () => {
    const seed = Number(process.env.BRACKETS_SEED ?? 7);
    console.info(`brackets seed ${seed} (BRACKETS_SEED=${seed} replays it)`);
    const truth = seededLogNormal(seed, 300, 10_000, 0.5);
    const starts = seededLogNormal(seed + 1, 300, 6_000, 0.6);
    // Each job is first looked at some time after it began, then every second (a tenth of its typical).
    const brackets = truth.map((durationMs, index) =>
      seen(durationMs, pollsFrom(durationMs, starts[index]!, 1_000)),
    );
    const estimate = durationsOf(brackets);
    const sortedTruth = ascending(truth);
    // The quick jobs are known least well: many were done by their first look, which says only "by then".
    for (const [share, within] of [
      [0.1, 0.2],
      [0.5, 0.1],
      [0.9, 0.1],
    ] as const) {
      const error =
        Math.abs(quantile(estimate, share) - quantile(sortedTruth, share)) / quantile(sortedTruth, share);
      expect(error, `quantile ${share}`).toBeLessThan(within);
    }
  });
});
