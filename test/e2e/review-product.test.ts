import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { checkLooks, openReview } from './browser.ts';

// One product across batches, by keyboard only, in Chromium: from a batch's review, V opens the active
// result's product in every batch that shot it (newest batch first, each result with its batch), where a
// decision and its undo work as in a batch; V again goes to the batch of the result on screen.

let app: AppServer;
let page: Page;
const batchIds: Record<string, string> = {};

async function shoot(name: string, folders: string[], shots: 1 | 4): Promise<void> {
  batchIds[name] = await finishedBatch(app.core, {
    inputs: folders.map((folder) => join(EXAMPLES_DIR, folder)),
    shoot: { ...QUICK_SHOOT, shots },
    name,
  });
}

const { missing } = appInChromium('review-product', {
  ready: async (ui) => {
    ({ app, page } = ui);
    await shoot('Spring', ['hat', 'cap-red'], 1);
    await shoot('Summer', ['hat'], 4);
  },
  open: false,
});

const press = (key: string) => page.keyboard.press(key);
const progress = () => page.locator('.review-progress').textContent();
const loupeBatch = () => page.getByTestId('loupe').locator('.review-batch').textContent();

describe.skipIf(missing)(`a product across batches${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('opens by keyboard from a batch, decides and undoes there, and goes back to a batch', async () => {
    await openReview(page, app.url, /Summer/, 'keys');
    await expect.poll(progress).toBe('0 of 4 reviewed · 0 picked · 0 rejected');

    // V: the hat in Summer and in Spring, newest batch first, on the result it was opened from.
    await page.locator('body').focus();
    await press('ArrowRight');
    await press('v');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Review of a product in all batches');
    await expect.poll(progress).toBe('0 of 5 reviewed · 0 picked · 0 rejected');
    const tiles = page.getByTestId('review-grid').getByRole('button');
    await expect
      .poll(async () =>
        (await tiles.locator('.review-batch').allTextContents()).map((text) => text.split(' · ')[0]),
      )
      .toEqual(['Summer', 'Summer', 'Summer', 'Summer', 'Spring']);
    expect(await page.getByTestId('review-grid').locator('[aria-current="true"]').textContent()).toContain(
      'hat, shot 2',
    );
    const summary = page.getByTestId('review-product');
    expect(await summary.textContent()).toContain(join(EXAMPLES_DIR, 'hat'));
    expect(await summary.getByRole('img').count()).toBeGreaterThan(0);

    // Decisions as in a batch: a pick in the loupe moves on; a reject on Spring's shot, then undone.
    await press('e');
    await press('p');
    await expect.poll(progress).toBe('1 of 5 reviewed · 1 picked · 0 rejected');
    await press('ArrowRight');
    await press('ArrowRight');
    await expect.poll(loupeBatch).toMatch(/^Spring · /);
    await press('x');
    await expect.poll(progress).toBe('2 of 5 reviewed · 1 picked · 1 rejected');
    await press('Control+z');
    await expect.poll(progress).toBe('1 of 5 reviewed · 1 picked · 0 rejected');
    await expect.poll(loupeBatch).toMatch(/^Spring · /);
    await press('g');
    await checkLooks(page, '19-review-product', 'Review (a product in all batches)');

    // The pick is Summer's second shot's, seen in Summer's own review too; Spring's reject is undone.
    const summer = await callCore(app.core, 'review:get', { batchId: batchIds.Summer! });
    expect(summer.items.map((item) => item.flag)).toEqual([null, 'picked', null, null]);
    const spring = await callCore(app.core, 'review:get', { batchId: batchIds.Spring! });
    expect(spring.counts.reviewed).toBe(0);

    // V again: the review of the batch of the result on screen (Spring's shot).
    await press('v');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Review');
    await expect.poll(progress).toBe('0 of 2 reviewed · 0 picked · 0 rejected');
    expect(await page.getByTestId('review-grid').locator('[aria-current="true"]').textContent()).toContain(
      'hat, shot 1',
    );
  }, 90_000);
});
