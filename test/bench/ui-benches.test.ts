import { describe, expect, it } from 'vitest';
import { browserMissing } from '../e2e/browser.ts';
import { runShortBench } from '../support/bench-short.ts';

// The benches that drive the app in Chromium, each in its short mode (see test/bench/core/).

const missing = browserMissing();

describe.skipIf(missing)(`the UI benches, short${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('bench:ui scrolls a live batch and opens a library', async () => {
    const figures = await runShortBench('ui');
    expect(figures).toMatchObject({ live: { products: 200 }, library: { jobs: 2000 } });
  }, 180_000);

  it('bench:review times previews, review:get and decide, and the Review view', async () => {
    const figures = await runShortBench('review');
    expect(figures).toMatchObject({ batch: { results: 400 } });
    expect(figures.ui).toHaveProperty('gridScroll');
  }, 180_000);
});
