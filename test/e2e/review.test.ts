import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REVIEW_KEYMAP } from '../../src-renderer/src/review/keymap.ts';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { checkLooks, openReview } from './browser.ts';

// Review by keyboard only, in Chromium, on a batch the sandbox made: picks, rejects and stars in the loupe
// with auto-advance; under a filter, auto-advance goes forward to the next undecided result or stays, never
// to an empty screen and never back to the first; undo brings back a result the filter hides; the shortcut
// sheet lists exactly the keys bound.

let app: AppServer;
let page: Page;
let batchId: string;

const { missing } = appInChromium('review', {
  ready: async (ui) => {
    ({ app, page } = ui);
    batchId = await finishedBatch(app.core, {
      inputs: ['bottles', 'cap-black', 'cap-gray', 'cap-red', 'hat', 'hoodie-black'].map((name) =>
        join(EXAMPLES_DIR, name),
      ),
      name: 'Review by keys',
    });
  },
  open: false,
});

const loupeName = () => page.getByTestId('loupe').getByRole('img').getAttribute('alt');
const press = (key: string) => page.keyboard.press(key);

describe.skipIf(missing)(`review by keyboard${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('decides, advances, filters, undoes and shows its keys, without a mouse', async () => {
    await openReview(page, app.url, /Review by keys/, 'keys');
    const progress = page.locator('.review-progress');
    await expect.poll(() => progress.textContent()).toBe('0 of 6 reviewed · 0 picked · 0 rejected');
    expect(await page.getByTestId('review-grid').getByRole('button').count()).toBe(6);
    await checkLooks(page, '13-review-grid', 'Review (grid)');

    // The loupe, on the first result; a decision moves on to the next undecided one.
    await page.locator('body').focus();
    await press('e');
    await expect.poll(loupeName).toBe('bottles, shot 1');
    await press('p');
    await expect.poll(loupeName).toBe('cap-black, shot 1');
    await press('x');
    await expect.poll(loupeName).toBe('cap-gray, shot 1');
    await press('3');
    await expect.poll(loupeName).toBe('cap-red, shot 1');
    await expect.poll(() => progress.textContent()).toBe('3 of 6 reviewed · 1 picked · 1 rejected');
    await checkLooks(page, '14-review-loupe', 'Review (loupe)');

    // Only what is not reviewed yet: deciding each goes forward, and the last stays on screen.
    const reviewed = page.getByLabel('Reviewed');
    await reviewed.focus();
    await press('ArrowDown');
    await press('Escape');
    expect(await reviewed.inputValue()).toBe('false');
    await expect.poll(loupeName).toBe('cap-red, shot 1');
    await press('p');
    await expect.poll(loupeName).toBe('hat, shot 1');
    await press('p');
    await expect.poll(loupeName).toBe('hoodie-black, shot 1');
    await press('p');
    // Nothing undecided after it: it stays, not an empty screen, not back to the first.
    await expect.poll(loupeName).toBe('hoodie-black, shot 1');
    await expect.poll(() => page.getByTestId('loupe').getByText('Picked').count()).toBe(1);

    // Picked only; undo a pick made before: the result comes back into view though it is no longer picked.
    const flag = page.getByLabel('Flag');
    await flag.focus();
    await press('ArrowDown');
    await press('Escape');
    expect(await flag.inputValue()).toBe('picked');
    await reviewed.focus();
    await press('ArrowUp');
    await press('Escape');
    await press('ArrowLeft');
    await expect.poll(loupeName).toBe('hat, shot 1');
    await press('Control+z');
    await expect.poll(loupeName).toBe('hoodie-black, shot 1');
    expect(await page.getByTestId('loupe').getByText('Picked').count()).toBe(0);
    await press('Control+z');
    await expect.poll(loupeName).toBe('hat, shot 1');
    await press('g');
    const tiles = page.getByTestId('review-grid').getByRole('button');
    await expect
      .poll(async () => (await tiles.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim()))
      .toEqual(['bottles, shot 1Picked', 'cap-red, shot 1Picked', 'hat, shot 1', 'hoodie-black, shot 1']);
    await press('Control+Shift+z');
    await expect.poll(() => progress.textContent()).toBe('5 of 6 reviewed · 3 picked · 1 rejected');

    // Compare the selection: two panes, one active, zoom locked across them.
    await press(' ');
    await press('ArrowLeft');
    await press(' ');
    await expect.poll(() => page.getByText('2 selected: keys act on all of them').count()).toBe(1);
    await press('c');
    const compare = page.getByTestId('compare');
    const panes = compare.locator('section.pane');
    await expect.poll(() => panes.count()).toBe(2);
    expect(await compare.locator('section[aria-current="true"]').getAttribute('aria-label')).toBe(
      'cap-red, shot 1',
    );
    const transforms = () =>
      compare
        .locator('img.pane-media')
        .evaluateAll((images) => images.map((image) => (image as HTMLElement).style.transform));
    await press('z');
    await expect.poll(transforms).toEqual(['scale(2) translate(0%, 0%)', 'scale(2) translate(0%, 0%)']);
    // Panned by keys, both panes alike: Shift+→ shows more of the right side, Shift+↓ more of the bottom.
    await press('Shift+ArrowRight');
    await press('Shift+ArrowRight');
    await press('Shift+ArrowDown');
    await expect.poll(transforms).toEqual(['scale(2) translate(-10%, -5%)', 'scale(2) translate(-10%, -5%)']);
    await press('ArrowRight');
    expect(await compare.locator('section[aria-current="true"]').getAttribute('aria-label')).toBe(
      'hat, shot 1',
    );
    await checkLooks(page, '16-review-compare', 'Review (compare)');
    // Survey shows the selection when there is one (Lightroom's N), else the active result's product.
    await press('n');
    await expect.poll(() => page.getByTestId('survey').locator('section.pane').count()).toBe(2);
    await checkLooks(page, '17-review-survey', 'Review (survey)');
    await press('w');
    const slider = page.getByTestId('wipe').getByRole('slider');
    await press(']');
    expect(await slider.inputValue()).toBe('60');
    expect(await page.getByTestId('wipe').getByRole('img').count()).toBe(2);
    await checkLooks(page, '18-review-wipe', 'Review (A/B wipe)');
    await press('g');

    // The shortcut sheet: exactly the bound keys, from the same keymap.
    await press('?');
    const sheet = page.getByRole('dialog', { name: 'Review keys' });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    expect(await sheet.locator('tr td:last-child').allTextContents()).toEqual(
      REVIEW_KEYMAP.map((binding) => binding.label),
    );
    await checkLooks(page, '15-review-keys', 'Review (keys)');
    await press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);

    // Every decision was committed as it was made.
    const view = await callCore(app.core, 'review:get', { batchId });
    expect(view.counts).toMatchObject({ reviewed: 5, picked: 3, rejected: 1 });

    // Videos from the three picks: quoted per product before anything is spent, then made.
    const spent = (await callCore(app.core, 'batches:get', { id: batchId })).creditsSpent;
    const makeVideos = page.getByRole('button', { name: 'Make videos…' });
    await makeVideos.focus();
    await press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Make videos from the picks' });
    const make = dialog.getByRole('button', { name: /^Make 3 videos for \d+ credits$/ });
    await make.waitFor();
    const rows = await dialog.locator('tbody tr').allTextContents();
    expect(rows.filter((row) => row.includes('1 of 1'))).toHaveLength(3);
    expect(rows.filter((row) => row.includes('no picks: no video'))).toHaveLength(3);
    const quoted = Number(/for (\d+) credits/.exec((await make.textContent())!)![1]);
    await checkLooks(page, '21-make-videos', 'Make videos');
    await make.focus();
    await press('Enter');
    await page.getByTestId('batch-progress').waitFor();
    await expect
      .poll(async () => (await callCore(app.core, 'batches:get', { id: batchId })).status, {
        timeout: 60_000,
      })
      .toBe('finished');
    const after = await callCore(app.core, 'batches:get', { id: batchId });
    expect(after.creditsSpent - spent).toBe(quoted);
    expect(after.jobs).toBe(9);
  }, 90_000);
});
