import { describe, expect, it } from 'vitest';
import { creditShares } from '../../../../src-main/core/export/result-credits.ts';

describe('creditShares', () => {
  it("splits a job's net charge over its results in whole credits that sum to it", () => {
    expect(creditShares(8, 4)).toEqual([2, 2, 2, 2]);
    expect(creditShares(10, 3)).toEqual([4, 3, 3]);
    expect(creditShares(1, 4)).toEqual([1, 0, 0, 0]);
    expect(creditShares(0, 2)).toEqual([0, 0]);
    for (const [net, count] of [
      [126, 4],
      [7, 7],
      [5, 9],
      [-3, 2],
    ] as const) {
      expect(creditShares(net, count).reduce((sum, share) => sum + share, 0)).toBe(net);
    }
  });
});
