import { describe, expect, it } from 'vitest';
import { runShortBench } from '../../support/bench-short.ts';

// A bench under plain Node in its short mode, so that `npm run bench` cannot rot (test/support/bench-short.ts).

describe('the benches, short', () => {
  it('bench:cli times adbatch status installed with npm link, and through the launcher', async () => {
    const figures = await runShortBench('cli-start');
    expect(figures).toMatchObject({ runs: 3 });
  }, 240_000);
});
