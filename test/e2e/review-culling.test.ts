import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { finishedBatch } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { checkLooks, openReview, screenshot } from './browser.ts';
import { activeTileIn, measuredColumns, reviewGrid } from './review-grid.ts';

// Culling as Lightroom and Photo Mechanic do it, in Chromium: the arrows in four directions by the grid's
// measured columns, the result Review was left on kept across leaving it and a reload, survey fitting five
// selected results inside a 1920x1080 window, compare staying within a product (and saying so when the
// product has no other result), a filmstrip under the loupe, and a sort by stars that the keys follow.

let app: AppServer;
let page: Page;

const { missing } = appInChromium('review-culling', {
  ready: async (ui) => {
    ({ app, page } = ui);
    await finishedBatch(app.core, {
      inputs: ['cap-red', 'hat', 'bottles'].map((name) => join(EXAMPLES_DIR, name)),
      shoot: { ...QUICK_SHOOT, shots: 4 },
      name: 'Cull in four directions',
    });
    await finishedBatch(app.core, {
      inputs: ['cap-gray', 'hoodie-black'].map((name) => join(EXAMPLES_DIR, name)),
      name: 'One shot each',
    });
  },
  open: false,
});

const press = (key: string) => page.keyboard.press(key);
const grid = () => reviewGrid(page);
const activeTile = () => activeTileIn(page);
const loupeName = () => page.getByTestId('loupe').getByRole('img').first().getAttribute('alt');

describe.skipIf(missing)(`culling${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('moves in four directions, keeps its place, fits survey, compares within a product, sorts', async () => {
    await openReview(page, app.url, /Cull in four directions/, 'keys');
    await expect.poll(() => grid().locator('.tile').count()).toBe(12);
    const names = await grid().locator('.tile-caption').allTextContents();
    expect(names.slice(0, 5)).toEqual([
      'cap-red, shot 1',
      'cap-red, shot 2',
      'cap-red, shot 3',
      'cap-red, shot 4',
      'hat, shot 1',
    ]);
    // 1280x800: five tiles a row (rows 0-4, 5-9, 10-11); ↑ and ↓ move by what the layout shows.
    await expect.poll(() => measuredColumns(page)).toBe(5);
    const columns = 5;

    await page.locator('body').focus();
    await expect.poll(activeTile).toBe(names[0]);
    await press('ArrowDown');
    await expect.poll(activeTile).toBe(names[columns]);
    await press('ArrowDown');
    await expect.poll(activeTile).toBe(names[2 * columns]);
    await press('ArrowRight');
    await expect.poll(activeTile).toBe(names[2 * columns + 1]);
    await press('ArrowDown');
    // The bottom row: it stays.
    await expect.poll(activeTile).toBe(names[2 * columns + 1]);
    await press('ArrowUp');
    await expect.poll(activeTile).toBe(names[columns + 1]);
    await press('ArrowRight');
    await press('ArrowDown');
    // Under a short last row, ↓ lands on its last result.
    await expect.poll(activeTile).toBe(names[11]);
    await press('ArrowUp');
    await expect.poll(activeTile).toBe(names[6]);
    await press('ArrowLeft');
    await expect.poll(activeTile).toBe(names[5]);
    await press('ArrowUp');
    await expect.poll(activeTile).toBe(names[0]);
    await press('ArrowUp');
    await expect.poll(activeTile).toBe(names[0]);

    // In the loupe ↓ and ↑ go to the next and previous product.
    await press('ArrowRight');
    await press('e');
    await expect.poll(loupeName).toBe('cap-red, shot 2');
    await press('ArrowDown');
    await expect.poll(loupeName).toBe('hat, shot 1');
    await press('ArrowDown');
    await expect.poll(loupeName).toBe('bottles, shot 1');
    await press('ArrowUp');
    await expect.poll(loupeName).toBe('hat, shot 1');

    // The filmstrip: every result, the one on screen marked; a click puts another in the loupe.
    const filmstrip = page.getByTestId('filmstrip');
    expect(await filmstrip.locator('[aria-current="true"]').getAttribute('aria-label')).toBe('hat, shot 1');
    await filmstrip.getByRole('button', { name: 'hat, shot 3' }).click();
    await expect.poll(loupeName).toBe('hat, shot 3');
    expect(await filmstrip.locator('[aria-current="true"]').getAttribute('aria-label')).toBe('hat, shot 3');
    await checkLooks(page, '14b-review-filmstrip', 'Review (loupe and filmstrip)');

    // Left and opened again, then reloaded: Review opens on the result it was left on.
    await press('g');
    await expect.poll(activeTile).toBe('hat, shot 3');
    await page.getByRole('button', { name: '← Cull in four directions' }).click();
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await expect.poll(activeTile).toBe('hat, shot 3');
    await openReview(page, app.url, /Cull in four directions/, 'keys');
    await expect.poll(activeTile).toBe('hat, shot 3');

    // C on a product's last result: the one before it in the same product, not the next product's first.
    await page.locator('body').focus();
    await press('ArrowRight');
    await expect.poll(activeTile).toBe('hat, shot 4');
    await press('c');
    const compare = page.getByTestId('compare');
    await expect
      .poll(() => compare.locator('section.pane').evaluateAll((panes) => panes.map((pane) => pane.ariaLabel)))
      .toEqual(['hat, shot 3', 'hat, shot 4']);
    await press('g');

    // Survey of five selected results at 1920x1080: all five whole inside the window.
    await page.setViewportSize({ width: 1920, height: 1080 });
    // Each key's effect seen before the next, as a person sees it (a CI run under load once ended with
    // fewer than five selected; if a key is lost, this now says which).
    const selectedTiles = () => grid().locator('.tile-selected').count();
    const first = names.indexOf('hat, shot 4');
    for (let step = 0; step < 4; step++) {
      await press(' ');
      await expect.poll(selectedTiles).toBe(step + 1);
      await press('ArrowRight');
      await expect.poll(activeTile).toBe(names[first + step + 1]);
    }
    await press(' ');
    await expect.poll(selectedTiles).toBe(5);
    await expect.poll(() => page.getByText('5 selected: keys act on all of them').count()).toBe(1);
    await press('n');
    const survey = page.getByTestId('survey').locator('section.pane');
    await expect.poll(() => survey.count()).toBe(5);
    await screenshot(page, '17b-review-survey-five-1920');
    const boxes = await survey.evaluateAll((panes) =>
      panes.map((pane) => {
        const box = pane.getBoundingClientRect();
        const image = pane.querySelector('.pane-stage')?.getBoundingClientRect();
        return { box, image, width: window.innerWidth, height: window.innerHeight };
      }),
    );
    for (const { box, image, width, height } of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(width);
      expect(box.bottom).toBeLessThanOrEqual(height);
      // The picture's stage is inside its pane and not a sliver.
      expect(image!.bottom).toBeLessThanOrEqual(box.bottom);
      expect(image!.height).toBeGreaterThan(250);
    }
    // ↑ and ↓ in survey: a row up or down among the panes, by the columns they are laid out in.
    const labels = await survey.evaluateAll((panes) => panes.map((pane) => pane.ariaLabel));
    const paneColumns = boxes.filter(({ box }) => Math.abs(box.top - boxes[0]!.box.top) < 1).length;
    expect(paneColumns).toBeLessThan(5);
    const activePane = () =>
      page.getByTestId('survey').locator('section[aria-current="true"]').getAttribute('aria-label');
    await expect.poll(activePane).toBe(labels[4]);
    await press('ArrowUp');
    await expect.poll(activePane).toBe(labels[4 - paneColumns]);
    await press('ArrowDown');
    await expect.poll(activePane).toBe(labels[4]);
    await press('g');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Stars on two results, in the loupe (where a key acts on the result on screen, not the selection),
    // then sort by stars: they come first, and → follows the sorted order.
    await press('e');
    // The loupe opens on the result the grid was on, and only then does ← move from it.
    await expect.poll(loupeName).toBe('bottles, shot 4');
    await press('ArrowLeft');
    await expect.poll(loupeName).toBe('bottles, shot 3');
    await press('5');
    await page.getByTestId('filmstrip').getByRole('button', { name: 'cap-red, shot 3' }).click();
    await expect.poll(loupeName).toBe('cap-red, shot 3');
    await press('2');
    await press('g');
    const sort = page.getByLabel('Sort');
    await sort.selectOption({ label: 'Stars (most first)' });
    await expect
      .poll(async () => (await grid().locator('.tile-caption').allTextContents()).slice(0, 3))
      .toEqual(['bottles, shot 3', 'cap-red, shot 3', 'cap-red, shot 1']);
    await page.locator('body').focus();
    await grid()
      .getByRole('button', { name: /^bottles, shot 3/ })
      .click();
    await press('ArrowRight');
    await expect.poll(activeTile).toBe('cap-red, shot 3');
    await press('ArrowRight');
    await expect.poll(activeTile).toBe('cap-red, shot 1');
    // Remembered: after a reload the sort is still by stars.
    await openReview(page, app.url, /Cull in four directions/, 'keys');
    await expect.poll(() => sort.inputValue()).toBe('stars');
    await expect
      .poll(async () => (await grid().locator('.tile-caption').allTextContents()).slice(0, 2))
      .toEqual(['bottles, shot 3', 'cap-red, shot 3']);

    // A product with one result: compare says so rather than pairing it with another product's.
    // A reload opens the screen it was on (Review): to Batches first, for the other batch.
    await page.getByRole('button', { name: 'Batches', exact: true }).click();
    for (const button of [/One shot each/, 'Review']) {
      await page.getByRole('button', { name: button, exact: button === 'Review' }).click();
    }
    await expect.poll(() => grid().locator('.tile').count()).toBe(2);
    await page.locator('body').focus();
    await press('c');
    await expect.poll(() => page.getByTestId('compare').locator('section.pane').count()).toBe(1);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'no other shot to compare with' }).count())
      .toBe(1);
  }, 120_000);

  it('selects with Space where the arrows went after a click, not the tile clicked', async () => {
    // Whatever screen a reload opens on (the one it was left on), to this batch's review, in its grid.
    await page.goto(app.url);
    for (const button of ['Batches', /One shot each/, 'Review']) {
      await page.getByRole('button', { name: button, exact: typeof button === 'string' }).click();
    }
    await page.locator('body').focus();
    await press('g');
    await expect.poll(() => grid().locator('.tile').count()).toBe(2);
    const selectedNames = () => grid().locator('.tile-selected .tile-caption').allTextContents();
    // A click puts the keyboard on a tile (and, in Chromium, the focus in it), as a designer starts.
    await grid()
      .getByRole('button', { name: /^cap-gray, shot 1/ })
      .click();
    await expect.poll(activeTile).toBe('cap-gray, shot 1');
    await press('ArrowRight');
    await expect.poll(activeTile).toBe('hoodie-black, shot 1');
    await press(' ');
    await expect.poll(selectedNames).toEqual(['hoodie-black, shot 1']);
    expect(await activeTile()).toBe('hoodie-black, shot 1');
    // Enter opens the loupe on it, as it does from anywhere in the grid.
    await press('Enter');
    await expect.poll(loupeName).toBe('hoodie-black, shot 1');
    // In the loupe, a click in the filmstrip then ← moves from the one clicked; Enter leaves no other mark.
    await page.getByTestId('filmstrip').getByRole('button', { name: 'cap-gray, shot 1' }).click();
    await expect.poll(loupeName).toBe('cap-gray, shot 1');
    await press('ArrowRight');
    await expect.poll(loupeName).toBe('hoodie-black, shot 1');
    await press('g');
    await press(' ');
    await expect.poll(selectedNames).toEqual([]);
  }, 60_000);
});
