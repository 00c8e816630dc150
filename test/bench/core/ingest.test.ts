import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:ingest scans its corpus and the bare loop', async () => {
    const figures = await runShortBench('ingest');
    expect(figures).toMatchObject({ photos: 10, products: 2, catalogs: { rows: 200 } });
  }, 120_000);
});
