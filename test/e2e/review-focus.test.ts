import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { openReview } from './browser.ts';

// Issue 29 point 5 in Chromium: in Review's loupe the designer clicks where the subject is on the result
// beside the big image; the mark shows there and core keeps the point (review:setFocus), a drag moves it,
// and Shift+F clears it. That an export's crop follows the point is core's test (integration/app/export.test.ts).

let app: AppServer;
let page: Page;
let batchId: string;

const { missing } = appInChromium('review-focus', {
  ready: async (ui) => {
    ({ app, page } = ui);
    batchId = await finishedBatch(app.core, { inputs: [join(EXAMPLES_DIR, 'hat')], name: 'Focus' });
  },
  open: false,
});

const storedFocus = async () => (await callCore(app.core, 'review:get', { batchId })).items[0]!.focus;

describe.skipIf(missing)(`the focus point in the loupe${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('is set by a click, moved by a drag, shown, kept by core, and cleared by Shift+F', async () => {
    await openReview(page, app.url, /Focus/, 'clicks');
    await page.locator('body').focus();
    await page.keyboard.press('e');
    const frame = page.getByTestId('loupe').getByTestId('focus-frame');
    const mark = frame.getByTestId('focus-mark');
    expect(await mark.count()).toBe(0);
    await expect
      .poll(() => frame.locator('img').evaluate((image) => (image as HTMLImageElement).complete))
      .toBe(true);
    const box = (await frame.boundingBox())!;

    // A click a quarter across and three quarters down.
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
    await expect.poll(storedFocus).toEqual({ x: expect.closeTo(0.25, 1), y: expect.closeTo(0.75, 1) });
    const markBox = async () => {
      const at = (await mark.boundingBox())!;
      return { x: (at.x + at.width / 2 - box.x) / box.width, y: (at.y + at.height / 2 - box.y) / box.height };
    };
    expect(await markBox()).toEqual({ x: expect.closeTo(0.25, 1), y: expect.closeTo(0.75, 1) });

    // A drag to the top right corner's side: the point follows, saved where the pointer lets go.
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.75);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(storedFocus).toEqual({ x: expect.closeTo(0.8, 1), y: expect.closeTo(0.2, 1) });
    expect(await markBox()).toEqual({ x: expect.closeTo(0.8, 1), y: expect.closeTo(0.2, 1) });

    // Shift+F: cleared in core and on screen.
    await page.locator('body').focus();
    await page.keyboard.press('Shift+F');
    await expect.poll(storedFocus).toBeNull();
    expect(await mark.count()).toBe(0);

    // The loupe shows a point core holds when it opens (set elsewhere: an agent, another window).
    const [item] = (await callCore(app.core, 'review:get', { batchId })).items;
    await callCore(app.core, 'review:setFocus', { batchId, resultId: item!.id, focus: { x: 0.1, y: 0.9 } });
    await openReview(page, app.url, /Focus/, 'clicks');
    await page.locator('body').focus();
    await page.keyboard.press('e');
    await expect.poll(() => mark.count()).toBe(1);
    expect(await markBox()).toEqual({ x: expect.closeTo(0.1, 1), y: expect.closeTo(0.9, 1) });
  });
});
