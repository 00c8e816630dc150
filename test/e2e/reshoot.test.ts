import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { checkLooks, openReview } from './browser.ts';

// Reshoot in Review, by keyboard only, in Chromium, on a batch the sandbox made: every shot of two products
// rejected, "Reshoot 2 products…" opens the dialog (Esc closes it, back on the button), another style is
// chosen with the arrow keys, the quote follows, and the reshoot is made for exactly what it said; the new
// shots join their products in Review.

let app: AppServer;
let page: Page;
let batchId: string;

const { missing } = appInChromium('reshoot', {
  ready: async (ui) => {
    ({ app, page } = ui);
    batchId = await finishedBatch(app.core, {
      inputs: ['bottles', 'cap-black', 'hat'].map((name) => join(EXAMPLES_DIR, name)),
      name: 'Reshoot by keys',
    });
  },
  open: false,
});

const loupeName = () => page.getByTestId('loupe').getByRole('img').getAttribute('alt');
const press = (key: string) => page.keyboard.press(key);

describe.skipIf(missing)(`reshoot by keyboard${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('offers the all-rejected products, quotes another style and reshoots them', async () => {
    await openReview(page, app.url, /Reshoot by keys/, 'keys');
    const progress = page.locator('.review-progress');
    await expect.poll(() => progress.textContent()).toBe('0 of 3 reviewed · 0 picked · 0 rejected');
    const reshoot = page.getByRole('button', { name: /^Reshoot \d products?…$/ });
    expect(await reshoot.count()).toBe(0);

    // Reject the only shot of bottles and of hat in the loupe; the button counts them as they are rejected.
    await page.locator('body').focus();
    await press('e');
    await expect.poll(loupeName).toBe('bottles, shot 1');
    await press('x');
    await expect.poll(() => reshoot.textContent()).toBe('Reshoot 1 product…');
    await expect.poll(loupeName).toBe('cap-black, shot 1');
    await press('p');
    await expect.poll(loupeName).toBe('hat, shot 1');
    await press('x');
    await expect.poll(() => reshoot.textContent()).toBe('Reshoot 2 products…');

    // Opened by keyboard; Esc closes it and leaves the keyboard on the button; nothing is spent.
    await reshoot.focus();
    await press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Shoot again' });
    const confirm = dialog.getByRole('button', { name: /^Reshoot 2 products for \d+ credits?$/ });
    await confirm.waitFor();
    await press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => reshoot.evaluate((button) => button === document.activeElement)).toBe(true);

    await press('Enter');
    await confirm.waitFor();
    // Review's keys do not reach the results behind the dialog.
    await press('u');
    expect((await callCore(app.core, 'review:get', { batchId })).counts.rejected).toBe(2);
    // The batch's own settings first; the arrow keys move to the next style, and the quote follows.
    const style = dialog.getByRole('radio', { name: 'Classic' });
    expect(await style.isChecked()).toBe(true);
    await style.focus();
    await press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: 'Minimal' }).isChecked()).toBe(true);
    const quality = dialog.getByLabel('Quality');
    await quality.focus();
    await press('ArrowDown');
    expect(await quality.inputValue()).toBe('pro');
    await dialog.getByRole('button', { name: 'Reshoot 2 products for 4 credits' }).waitFor();
    const rows = (await dialog.locator('tbody tr').allTextContents()).map((row) => row.replace(/\s+/g, ' '));
    expect(rows).toEqual(['bottles112 credits', 'hat112 credits']);
    // How each adds up, in the words every front end shares.
    expect(await dialog.getByTestId('reshoot-price').textContent()).toBe(
      'Each shoot: 1 shot x 2 credits a shot = 2 credits',
    );
    await checkLooks(page, '20-reshoot', 'Reshoot');

    const spent = (await callCore(app.core, 'batches:get', { id: batchId })).creditsSpent;
    const made = dialog.getByRole('button', { name: 'Reshoot 2 products for 4 credits' });
    await made.focus();
    await press('Enter');
    await page.getByTestId('batch-progress').waitFor();
    await expect
      .poll(async () => (await callCore(app.core, 'batches:get', { id: batchId })).status, {
        timeout: 60_000,
      })
      .toBe('finished');
    const after = await callCore(app.core, 'batches:get', { id: batchId });
    expect(after.creditsSpent - spent).toBe(4);
    const items = (await callCore(app.core, 'review:get', { batchId })).items;
    expect(items.map((item) => [item.productName, item.style, item.flag])).toEqual([
      ['bottles', 'classic', 'rejected'],
      ['bottles', 'minimal', null],
      ['cap-black', 'classic', 'picked'],
      ['hat', 'classic', 'rejected'],
      ['hat', 'minimal', null],
    ]);
  }, 90_000);
});
