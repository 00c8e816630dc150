import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:eta runs a batch on the sandbox and says its ETA at 25, 50 and 75 % done', async () => {
    const figures = await runShortBench('eta');
    expect(figures).toMatchObject({ products: 3, runs: [{ spread: 'steady', jobs: 6, done: 6 }] });
    const [run] = figures.runs as Array<{ checkpoints: Array<{ share: number; parts: unknown }> }>;
    expect(run!.checkpoints.map((point) => point.share)).toEqual([0.25, 0.5, 0.75]);
    // Each point says the estimate's parts beside the truth's, for the job that ends the batch.
    const seconds = expect.any(Number);
    const parts = { shootS: seconds, budgetS: seconds, workS: seconds, seenS: seconds };
    for (const point of run!.checkpoints) {
      expect(point.parts).toMatchObject({ predicted: parts, actual: parts });
    }
    // Beside each mean error, the least any estimator could have there (eta-floor.ts).
    const [mean] = figures.meanErrors as Array<Record<string, number>>;
    for (const key of ['floorAt25', 'floorAt50', 'floorAt75', 'luckAt75']) {
      expect(mean![key], key).toBeGreaterThanOrEqual(0);
    }
  }, 120_000);
});
