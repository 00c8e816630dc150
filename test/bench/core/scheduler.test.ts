import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:scheduler runs ours and the naive client to the end', async () => {
    const figures = await runShortBench('scheduler');
    expect(figures).toMatchObject({ products: 3, ours: { jobs: 6, completed: 6 } });
  }, 120_000);
});
