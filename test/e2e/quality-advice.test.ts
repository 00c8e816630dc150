import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { untilValue } from '../support/until.ts';

// Issue 29 point 3 in Chromium: the designer exported a batch for Shopify; New batch, at the Standard
// quality the last batch used, says before the next batch that Shopify wants 2048 px and to choose Pro
// (2K); with Pro chosen the advice goes.

let page: Page;
const { missing } = appInChromium('quality-advice', {
  ready: async (ui) => {
    page = ui.page;
    const batchId = await finishedBatch(ui.app.core, { inputs: [join(EXAMPLES_DIR, 'hat')], name: 'Hats' });
    const started = await callCore(ui.app.core, 'export:start', {
      scope: { batchIds: [batchId] },
      recipes: ['shopify'],
      selection: { rule: 'not-rejected' },
      destination: join(ui.dir, 'exports'),
      acceptWarnings: ['below_recommended'],
    });
    const ended = await untilValue(async () => {
      const detail = await callCore(ui.app.core, 'export:get', { id: started.id });
      return detail.state === 'running' ? null : detail;
    });
    expect(ended.state).toBe('done');
  },
});

describe.skipIf(missing)(`New batch's quality advice${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it("says which quality Shopify's recipe wants before the batch, and not once it is chosen", async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByTestId('quote-total').waitFor();
    const advice = page.getByTestId('recipe-advice');
    await expect.poll(() => advice.textContent()).toContain('Shopify wants 2048 px: choose Pro (2K).');
    await page.getByLabel('Quality').selectOption('pro');
    await expect.poll(() => advice.count()).toBe(0);
  });
});
