import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FRAME_RATE } from '../../src-renderer/src/review/video-transport.ts';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch, untilFinished } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { checkLooks } from './browser.ts';

// Issue 12, point 6 in Chromium: a batch made with its videos "after review" says so; Make videos starts
// from the settings chosen then, shows each product's picks in order with the ones the length uses, and
// takes a new order by keyboard (Alt or Ctrl with ← →, announced) and by drag, which the video's job is made
// with; the video then plays in the loupe by J / K / L, frame steps and Space, and K no longer decides.

let dir: string;
let app: AppServer;
let page: Page;
let batchId: string;

const LATER = { duration: 10, resolution: '720p', mode: 'product_only', aspectRatio: null } as const;

const { missing } = appInChromium('review-videos', {
  ready: async (ui) => {
    ({ app, page, dir } = ui);
    batchId = await finishedBatch(app.core, {
      inputs: ['bottles', 'hat'].map((name) => join(EXAMPLES_DIR, name)),
      shoot: { ...QUICK_SHOOT, shots: 4 },
      video: LATER,
      videoWhen: 'after_review',
      name: 'Videos later',
    });
  },
  open: false,
});

const press = (key: string) => page.keyboard.press(key);
const loupeName = () =>
  page
    .getByTestId('loupe')
    .locator('img, video')
    .first()
    .evaluate((element) => element.getAttribute('aria-label') ?? element.getAttribute('alt'));

describe.skipIf(missing)(
  `videos from the picks, in Chromium${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('orders the picks by keyboard and drag, and makes the video from them in that order', async () => {
      await page.goto(app.url);
      await page.getByRole('button', { name: /Videos later/ }).click();
      await expect
        .poll(() => page.getByTestId('videos-after-review').textContent())
        .toBe('After review, from the picks (10 s / 720p): Review, then Make videos…');
      await page.getByRole('button', { name: 'Review', exact: true }).click();
      const progress = page.locator('.review-progress');
      await expect.poll(() => progress.textContent()).toBe('0 of 8 reviewed · 0 picked · 0 rejected');

      // Pick the four shots of the first product in the loupe.
      await page.locator('body').focus();
      await press('e');
      for (let shot = 1; shot <= 4; shot++) {
        await expect.poll(loupeName).toBe(`bottles, shot ${shot}`);
        await press('p');
      }
      await expect.poll(() => progress.textContent()).toBe('4 of 8 reviewed · 4 picked · 0 rejected');
      const items = (await callCore(app.core, 'review:get', { batchId })).items;
      const shots = items.filter((item) => item.productName === 'bottles').map((item) => item.id);
      expect(shots).toHaveLength(4);

      await page.getByRole('button', { name: 'Make videos…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Make videos from the picks' });
      await dialog.getByRole('button', { name: /^Make 1 video for \d+ credits$/ }).waitFor();
      // The settings chosen in New batch.
      expect(await dialog.getByLabel('Length').inputValue()).toBe('10');
      expect(await dialog.getByLabel('Resolution').inputValue()).toBe('720p');
      // How each video's price adds up, as New batch, the CLI and MCP say it (issue 31, point 5).
      expect(await dialog.getByTestId('video-price').textContent()).toBe(
        'Each video: 10 s x 4 credits a second = 40 - 6 (15 % off without a model) = 34 credits',
      );
      const row = dialog.locator('tbody tr').first();
      expect(await row.textContent()).toContain('used: 3 of 4 · the rest not used at 10 s');
      const pick = (id: number) => row.locator(`[data-pick="${id}"]`);
      const order = () =>
        row
          .locator('[data-pick]')
          .evaluateAll((picks) => picks.map((element) => Number(element.dataset.pick)));
      expect(await order()).toEqual(shots);
      expect(await pick(shots[3]!).getAttribute('aria-label')).toBe(
        'bottles, shot 4: place 4 of 4, not used at 10 s',
      );

      // By keyboard: the fourth pick to the front, one place a key, the focus staying on it.
      await pick(shots[3]!).focus();
      await press('Alt+ArrowLeft');
      const announcement = page.getByTestId('pick-order-announcement');
      await expect.poll(() => announcement.textContent()).toBe('bottles, shot 4 moved to place 3 of 4.');
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.pick))
        .toBe(String(shots[3]));
      await press('Control+ArrowLeft');
      await press('Alt+ArrowLeft');
      await expect.poll(() => announcement.textContent()).toBe('bottles, shot 4 moved to place 1 of 4.');
      expect(await order()).toEqual([shots[3], shots[0], shots[1], shots[2]]);
      // The page did not go back (Alt+← is the browser's Back).
      expect(await dialog.isVisible()).toBe(true);
      await expect
        .poll(() => pick(shots[2]!).getAttribute('aria-label'))
        .toBe('bottles, shot 3: place 4 of 4, not used at 10 s');
      expect(await pick(shots[3]!).getAttribute('aria-label')).toBe('bottles, shot 4: place 1 of 4, used');

      // By drag with the mouse: shot 2 dropped on the first place.
      await pick(shots[1]!).dragTo(pick(shots[3]!));
      const chosen = [shots[1]!, shots[3]!, shots[0]!, shots[2]!];
      await expect.poll(order).toEqual(chosen);
      await expect
        .poll(() => pick(shots[0]!).getAttribute('aria-label'))
        .toBe('bottles, shot 1: place 3 of 4, used');
      await checkLooks(page, '22-make-videos-order', 'Make videos (the order of the picks)');

      await dialog.getByRole('button', { name: /^Make 1 video for \d+ credits$/ }).click();
      await page.getByTestId('batch-progress').waitFor();
      const db = new Database(join(dir, 'data', 'adbatch.db'), { readonly: true });
      try {
        const videos = db.prepare("SELECT settings FROM jobs WHERE kind = 'video'").all() as Array<{
          settings: string;
        }>;
        expect(videos.map((video) => (JSON.parse(video.settings) as { images: number[] }).images)).toEqual([
          chosen.slice(0, 3),
        ]);
      } finally {
        db.close();
      }
      await untilFinished(app.core, batchId);
      expect(await page.getByTestId('videos-after-review').count()).toBe(0);
    }, 180_000);

    it('plays the video in the loupe by J / K / L, frame steps and Space; Shift+P keeps one shot', async () => {
      await page.getByRole('button', { name: 'Review', exact: true }).click();
      const progress = page.locator('.review-progress');
      await expect.poll(() => progress.textContent()).toBe('4 of 9 reviewed · 4 picked · 0 rejected');
      await page.locator('body').focus();
      await press('e');
      // The video comes after the shots of its product, before the next product's: back to it.
      for (let step = 0; step < 8 && (await loupeName()) !== 'bottles, video 1'; step++) {
        const was = await loupeName();
        await press('ArrowLeft');
        await expect.poll(loupeName).not.toBe(was);
      }
      expect(await loupeName()).toBe('bottles, video 1');
      const video = page.getByTestId('loupe-video');
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState))
        .toBeGreaterThan(0);
      const state = () =>
        video.evaluate((element: HTMLVideoElement) => ({
          paused: element.paused,
          rate: element.playbackRate,
          time: element.currentTime,
          loop: element.loop,
        }));

      // K pauses, and no longer decides anything.
      await press('k');
      expect((await state()).paused).toBe(true);
      await press('l');
      await expect.poll(async () => (await state()).paused).toBe(false);
      expect((await state()).rate).toBe(1);
      await press('l');
      expect((await state()).rate).toBe(2);
      await press('l');
      expect((await state()).rate).toBe(4);
      await press('l');
      expect((await state()).rate).toBe(4);
      expect(await page.getByTestId('video-direction').textContent()).toBe('Playing 4x');
      await expect.poll(async () => (await state()).time).toBeGreaterThan(0.5);
      await press('k');
      await expect.poll(async () => (await state()).paused).toBe(true);
      expect(await page.getByTestId('video-direction').textContent()).toBe('Paused');

      // Frame steps of 1/FRAME_RATE s.
      const at = (await state()).time;
      await press('.');
      await expect.poll(async () => (await state()).time).toBeCloseTo(at + 1 / FRAME_RATE, 5);
      await press(',');
      await press(',');
      await expect.poll(async () => (await state()).time).toBeCloseTo(at - 1 / FRAME_RATE, 5);
      expect(await page.getByTestId('video-time').textContent()).toMatch(/^0:0\d\.\d\d \/ 0:1\d\.\d\d$/);
      // The hint says the step as the time it is; the frame rate it rests on is a guess of ours, not the user's.
      expect(await page.getByText(`, . one frame (1/${FRAME_RATE} s)`).isVisible()).toBe(true);
      expect(await page.getByText('a guess').count()).toBe(0);

      // J goes back, stepping by seeks: the element stays paused and its time falls; again: faster.
      const before = (await state()).time;
      await press('j');
      await expect.poll(async () => (await state()).time).toBeLessThan(before - 0.2);
      expect((await state()).paused).toBe(true);
      expect(await page.getByTestId('video-direction').textContent()).toBe('Backward 1x');
      await press('j');
      expect(await page.getByTestId('video-direction').textContent()).toBe('Backward 2x');
      await press('k');
      const stopped = (await state()).time;
      await page.waitForTimeout(300);
      expect((await state()).time).toBe(stopped);

      // Space plays and pauses; Shift+L turns the loop off.
      await press(' ');
      await expect.poll(async () => (await state()).paused).toBe(false);
      await press(' ');
      await expect.poll(async () => (await state()).paused).toBe(true);
      expect((await state()).loop).toBe(true);
      await press('Shift+L');
      expect((await state()).loop).toBe(false);
      expect(await page.getByRole('checkbox', { name: 'Loop' }).isChecked()).toBe(false);
      await press('.');
      await checkLooks(page, '23-review-video', 'Review (a video in the loupe)');
      expect(await progress.textContent()).toBe('4 of 9 reviewed · 4 picked · 0 rejected');

      // The sheet lists the video keys apart, saying when they act.
      await press('?');
      const sheet = page.getByRole('dialog', { name: 'Review keys' });
      expect(await sheet.textContent()).toContain(
        'A video in the loupe (these keys act only while one is on screen)',
      );
      await press('Escape');

      // On a shot, J K L do nothing, and Shift+P picks it and rejects the rest of its product.
      await press('ArrowRight');
      await expect.poll(loupeName).toBe('hat, shot 1');
      await press('k');
      await press('l');
      expect(await progress.textContent()).toBe('4 of 9 reviewed · 4 picked · 0 rejected');
      await press('ArrowRight');
      await expect.poll(loupeName).toBe('hat, shot 2');
      await press('Shift+P');
      await expect.poll(() => progress.textContent()).toBe('8 of 9 reviewed · 5 picked · 3 rejected');
    }, 60_000);
  },
);
