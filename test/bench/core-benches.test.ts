import { describe, expect, it } from 'vitest';
import { runShortBench } from '../support/bench-short.ts';

// The benches that run under plain Node, each in its short mode: they still run to their end and write
// their figures, so that `npm run bench` cannot rot between the runs that measure.

describe('the benches, short', () => {
  it('bench:scheduler runs ours and the naive client to the end', async () => {
    const figures = await runShortBench('scheduler');
    expect(figures).toMatchObject({ products: 3, ours: { jobs: 6, completed: 6 } });
  }, 120_000);

  it('bench:ingest scans its corpus and the bare loop', async () => {
    const figures = await runShortBench('ingest');
    expect(figures).toMatchObject({ photos: 10, products: 2, catalogs: { rows: 200 } });
  }, 120_000);

  it('bench:export exports through the three recipes and each alone, and makes videos for two channels', async () => {
    const figures = await runShortBench('export');
    expect(figures).toMatchObject({ products: 4, results: 16, videos: { videos: 1, files: 2 } });
  }, 300_000);

  it('bench:database opens, checks and backs up its database', async () => {
    const figures = await runShortBench('database');
    expect(figures).toMatchObject({ jobs: 20 });
  }, 120_000);

  it('bench:cli times adbatch status installed with npm link, and through the launcher', async () => {
    const figures = await runShortBench('cli-start');
    expect(figures).toMatchObject({ runs: 3 });
  }, 240_000);

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
