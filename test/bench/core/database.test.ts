import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:database opens, checks and backs up its database', async () => {
    const figures = await runShortBench('database');
    expect(figures).toMatchObject({ jobs: 20 });
  }, 120_000);
});
