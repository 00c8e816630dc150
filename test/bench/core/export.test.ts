import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:export exports through the three recipes and each alone, and makes videos for two channels', async () => {
    const figures = await runShortBench('export');
    expect(figures).toMatchObject({ products: 4, results: 16, videos: { videos: 1, files: 2 } });
  }, 300_000);
});
