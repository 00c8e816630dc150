import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AppServer } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { INTO_STATE, productJobs, withQueueStore } from '../support/job-states.ts';
import { newBatch, products } from '../unit/core/queue/store-fixtures.ts';

// The batch page's decisions in Chromium: each shoot that waits for a person offers the decisions core allows
// for it (JobView.decisions), in words that say what they cost, and nothing else, so no button is refused.
// It once offered Check again, Retry and Abandon for an unknown outcome and a stale shoot alike, while core
// allows one set for each. The shoots are put in their states on the app's own database before it starts.

let page: Page;
let app: AppServer;

const { missing } = appInChromium('job-decisions', {
  prepare: async (dir) => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { recursive: true });
    withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(
        newBatch({ name: 'Needs you', products: products(4), video: null, libraryDir: join(dir, 'library') }),
      );
      const [unknown, stale, failed, owed] = productJobs(ctx, batch.id);
      INTO_STATE.outcome_unknown(ctx, unknown!.shoot, unknown!.video);
      INTO_STATE.stale(ctx, stale!.shoot, stale!.video);
      INTO_STATE.failed(ctx, failed!.shoot, failed!.video);
      INTO_STATE.owed(ctx, owed!.shoot, owed!.video);
      ctx.store.batches.setStatus(batch.id, 'finished');
    });
    return undefined;
  },
  ready: (ui) => {
    ({ app, page } = ui);
  },
  open: false,
});

const row = (product: string) =>
  page.getByTestId('batch-products').locator('.product-row').filter({ hasText: product });
const offered = (product: string) => row(product).locator('.job-actions button').allTextContents();
const stateOf = (product: string) => row(product).locator('.job-state').textContent();

describe.skipIf(missing)(`decisions on the batch page${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('offers each waiting shoot what core allows, and each decision offered is done', async () => {
    await page.goto(app.url);
    await page.getByRole('button', { name: /Needs you/ }).click();
    await expect.poll(() => stateOf('Product 1')).toBe('outcome unknown');

    // What cannot pay twice first: asked again (free) before any Retry is offered (issue 27).
    expect(await offered('Product 1')).toEqual(['Check again (free)', 'Abandon']);
    expect(await row('Product 1').locator('.job-actions small').textContent()).toBe(
      '8 credits may already be charged',
    );
    expect(await stateOf('Product 2')).toBe('no answer from the service');
    expect(await offered('Product 2')).toEqual(['Check again (free)']);
    expect(await offered('Product 3')).toEqual(['Retry (costs 8 credits)']);
    expect(await offered('Product 4')).toEqual(['Download again (free)']);
    // The batch itself: finished running, so neither paused nor cancelled, and it needs you; what it owes is
    // offered again, for free.
    expect(await page.locator('.screen-header .badge').textContent()).toBe('needs you');
    for (const name of ['Pause', 'Resume', 'Cancel']) {
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(await page.locator('.notice').getByRole('button', { name: 'Download again (free)' }).count()).toBe(
      1,
    );

    // Abandoned: never sent again, and nothing more to decide.
    await row('Product 1').getByRole('button', { name: 'Abandon' }).click();
    await expect.poll(() => stateOf('Product 1')).toBe('cancelled');
    expect(await offered('Product 1')).toEqual([]);
    // Checked again: followed again, no longer waiting for a person.
    await row('Product 2').getByRole('button', { name: 'Check again (free)' }).click();
    await expect.poll(() => offered('Product 2')).toEqual([]);
    expect(await stateOf('Product 2')).not.toBe('no answer from the service');
    expect(await page.getByRole('alert').count()).toBe(0);
  }, 60_000);
});
