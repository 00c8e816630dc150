import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { previewPath, previewsDir } from '../../src-main/core/review/previews.ts';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../support/job-settings.ts';
import { checkLooks, holdAnswers, openReview } from './browser.ts';

// Issue 31, point 3 in Chromium: video tiles show a frame of their video (a video whose frame cannot be
// taken says "Video" and its length, never a broken image); the keys 6 to 9 give a colour label, shown as a
// mark named by its colour, taken away by the same key again, kept over a reload; a long rejection's words
// stay inside their tile, whole in its tooltip and in the loupe.

let app: AppServer;
let page: Page;
let dir: string;
let batchId: string;

const { missing } = appInChromium('review-labels', {
  ready: async (ui) => {
    ({ app, page, dir } = ui);
    batchId = await finishedBatch(app.core, {
      inputs: ['bottles', 'hat', 'cap-red'].map((name) => join(EXAMPLES_DIR, name)),
      shoot: QUICK_SHOOT,
      video: QUICK_VIDEO,
      name: 'Labels and posters',
    });
  },
  open: false,
});

const press = (key: string) => page.keyboard.press(key);
const grid = () => page.getByTestId('review-grid');
/** A result's tile, by the name under its picture. */
const tile = (name: string) =>
  grid()
    .getByRole('button')
    .filter({ has: page.locator('.tile-caption').getByText(name, { exact: true }) });
/** The colour labels the tile shows, by the names its marks say. */
const labelsOf = (name: string) =>
  tile(name)
    .locator('.label-mark')
    .evaluateAll((marks) => marks.map((mark) => mark.getAttribute('aria-label')));

describe.skipIf(missing)(
  `labels and video posters in Review${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('shows a frame of each video, and says "Video" where none can be taken', async () => {
      // Each video's frame is taken when it is downloaded, in the background.
      await expect
        .poll(async () => {
          const items = (await callCore(app.core, 'review:get', { batchId })).items;
          return items.filter((item) => item.kind === 'video' && item.gridUrl !== null).length;
        })
        .toBe(3);
      // One video that is no video any more, and its frame gone: none can be taken again.
      const db = new Database(join(dir, 'data', 'adbatch.db'), { readonly: true });
      const broken = db
        .prepare<[string], { file: string; sha256: string }>(
          `SELECT b.library_dir || '/' || a.path AS file, a.sha256 FROM assets a JOIN jobs j ON j.id = a.job_id
         JOIN products p ON p.id = j.product_id JOIN batches b ON b.id = j.batch_id
         WHERE j.batch_id = ? AND a.kind = 'video' AND p.name = 'cap-red'`,
        )
        .get(batchId)!;
      db.close();
      await writeFile(broken.file, 'not a video any more');
      for (const size of ['grid', 'screen'] as const) {
        await rm(previewPath(previewsDir(join(dir, 'data')), size, broken.sha256));
      }

      await openReview(page, app.url, /Labels and posters/, 'keys');
      await expect.poll(() => grid().getByRole('button').count()).toBe(6);
      const images = grid().locator('img.tile-image');
      // Every picture loaded: the shots' and two videos' frames, none broken.
      await expect
        .poll(() =>
          images.evaluateAll((all) =>
            all.map(
              (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
            ),
          ),
        )
        .toEqual([true, true, true, true, true]);
      for (const name of ['bottles, video 1', 'hat, video 1']) {
        const size = await tile(name)
          .locator('img')
          .evaluate((image) => [
            (image as HTMLImageElement).naturalWidth,
            (image as HTMLImageElement).naturalHeight,
          ]);
        expect(Math.min(...size), name).toBeGreaterThan(0);
      }
      const placeholder = tile('cap-red, video 1').getByTestId('video-placeholder');
      expect(await placeholder.innerText()).toBe(`Video\n${QUICK_VIDEO.duration} s`);
      expect(await tile('cap-red, video 1').locator('img').count()).toBe(0);
    });

    it('gives a colour label by 6 to 9, takes it away by the same key, and keeps it over a reload', async () => {
      await page.locator('body').focus();
      // The grid acts on the active result: the first.
      await press('6');
      await expect.poll(() => labelsOf('bottles, shot 1')).toEqual(['Red label']);
      // The same key again: none. A label does not move on (it is no review).
      await press('6');
      await expect.poll(() => labelsOf('bottles, shot 1')).toEqual([]);
      await press('8');
      await expect.poll(() => labelsOf('bottles, shot 1')).toEqual(['Green label']);
      await press('ArrowRight');
      await press('9');
      await expect.poll(() => labelsOf('bottles, video 1')).toEqual(['Blue label']);
      await press('7');
      await expect.poll(() => labelsOf('bottles, video 1')).toEqual(['Yellow label']);

      // The filter by label.
      const label = page.getByRole('combobox', { name: /^Label/ });
      await label.selectOption('green');
      await expect.poll(() => grid().getByRole('button').count()).toBe(1);
      await label.selectOption('');

      await page.reload();
      await openReview(page, app.url, /Labels and posters/, 'keys');
      await expect.poll(() => labelsOf('bottles, shot 1')).toEqual(['Green label']);
      expect(await labelsOf('bottles, video 1')).toEqual(['Yellow label']);
      expect(await labelsOf('hat, shot 1')).toEqual([]);
    });

    it('keeps a long rejection inside its tile, its words whole in the tooltip and the loupe', async () => {
      await tile('hat, shot 1').click();
      await page.locator('body').focus();
      await press('5');
      await tile('hat, shot 1').click();
      await page.locator('body').focus();
      await press('d');
      await tile('hat, shot 1').click();
      await page.locator('body').focus();
      await press('6');
      const hat = tile('hat, shot 1');
      const flag = hat.locator('.flag-rejected');
      await expect.poll(() => flag.getAttribute('title')).toBe('Rejected: deformed product');
      const box = (await hat.boundingBox())!;
      for (const mark of await hat.locator('.tile-marks > *').all()) {
        const inner = (await mark.boundingBox())!;
        // Inside the tile's box, to a pixel of rounding.
        expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width + 1);
        expect(inner.y + inner.height).toBeLessThanOrEqual(box.y + box.height + 1);
      }
      // Cut with an ellipsis where the tile is narrower than the words.
      expect(await flag.evaluate((element) => getComputedStyle(element).textOverflow)).toBe('ellipsis');
      await checkLooks(page, '31-review-labels-posters', 'Review (labels, video frames, a long rejection)');

      await press('e');
      const loupe = page.getByTestId('loupe');
      await expect.poll(() => loupe.locator('.flag-rejected').innerText()).toBe('Rejected: deformed product');
      expect(await loupe.getByRole('img', { name: 'Red label' }).count()).toBe(1);
    });

    it('keeps a later label on screen when the answer to an earlier one comes after it', async () => {
      // The answers to decisions are held until both labels were sent, then given in the order core made
      // them, the earlier first.
      const answers = await holdAnswers(page, 'review:decide');
      await page.reload();
      await openReview(page, app.url, /Labels and posters/, 'keys');
      await tile('hat, video 1').click();
      await page.locator('body').focus();
      await press('9');
      await expect.poll(() => answers.count()).toBe(1);
      // Shown at once: blue. The same key again, before core's answer came: none.
      await press('9');
      await expect.poll(() => answers.count()).toBe(2);
      expect(await labelsOf('hat, video 1')).toEqual([]);

      // Every label mark the grid shows from now on.
      await grid().evaluate((element) => {
        const shown: string[] = [];
        (window as unknown as { labelsShown: string[] }).labelsShown = shown;
        new MutationObserver((records) => {
          for (const record of records) {
            for (const node of record.addedNodes) {
              if (!(node instanceof Element)) continue;
              const marks = node.matches('.label-mark') ? [node] : [...node.querySelectorAll('.label-mark')];
              for (const mark of marks) shown.push(mark.getAttribute('aria-label') ?? '');
            }
          }
        }).observe(element, { subtree: true, childList: true });
      });
      answers.release();
      await expect.poll(() => tile('hat, video 1').getAttribute('aria-busy')).toBeNull();
      expect(await labelsOf('hat, video 1')).toEqual([]);
      // The first answer (blue) never came back on screen over the later change.
      expect(
        await page.evaluate(() => (window as unknown as { labelsShown: string[] }).labelsShown),
      ).not.toContain('Blue label');
      await page.reload();
      await openReview(page, app.url, /Labels and posters/, 'keys');
      expect(await labelsOf('hat, video 1')).toEqual([]);
    });
  },
);
