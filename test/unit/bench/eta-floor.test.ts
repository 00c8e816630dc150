import { describe, expect, it } from 'vitest';
import { etaErrorFloor } from '../../../bench/eta-floor.ts';
import { spreadDurations } from '../../../bench/eta-oracle.ts';

// The floor under any ETA's error (bench:eta): nothing to miss where every job takes the same time, more
// to miss the wider the spread, and less the more jobs a batch has left to average over.

const SHARES = [0.25, 0.5, 0.75];
const floorOf = (durations: Record<'shoot' | 'video', number[]>, products: number) =>
  etaErrorFloor(durations, products, 210, SHARES, 5, 200).map((point) => point.mean);

describe('the ETA error floor', () => {
  it('is nil when every job takes the same time: everything left is then known', () => {
    const same = { shoot: Array(400).fill(1_200), video: Array(400).fill(10_000) };
    expect(floorOf(same, 30)).toEqual([0, 0, 0]);
  });

  it('rises with the spread of the durations, and falls with the batch size', () => {
    const steady = floorOf(spreadDurations('steady', 0.1), 30);
    const wide = floorOf(spreadDurations('wide', 0.1), 30);
    const wideLarge = floorOf(spreadDurations('wide', 0.1), 100);
    for (const [index] of SHARES.entries()) {
      expect(wide[index]!).toBeGreaterThan(steady[index]!);
      expect(wideLarge[index]!).toBeLessThan(wide[index]!);
    }
    // Wide at 30 products: the 20 % target at 75 % done is beyond any estimator's reach.
    expect(wide[2]!).toBeGreaterThan(0.2);
  });
});
