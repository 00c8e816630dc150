import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch, pickResults } from '../support/core-harness.ts';
import { expectAccessible, openReview } from './browser.ts';

// The Make videos dialog's logo row, in Chromium: "Choose file…" asks main's image dialog (here its
// stand-in answers a real PNG), the file's name shows, the video is made with it, and Clear goes back to the
// URL field. What reaches the service is tested in test/integration/app/served-links.test.ts.

let dir: string;
let app: AppServer;
let page: Page;
let batchId: string;

const { missing } = appInChromium('logo', {
  prepare: async (folder) => {
    const logo = join(folder, 'brand-mark.png');
    await writeFile(
      logo,
      await sharp({ create: { width: 200, height: 80, channels: 4, background: '#c21e3c' } })
        .png()
        .toBuffer(),
    );
    return { app: { pickImage: logo } };
  },
  ready: async (ui) => {
    ({ app, page, dir } = ui);
    batchId = await finishedBatch(app.core, { inputs: [join(EXAMPLES_DIR, 'hat')], name: 'Logo row' });
    const [shot] = (await callCore(app.core, 'review:get', { batchId })).items;
    await pickResults(app.core, batchId, [shot!.id]);
  },
  open: false,
});

describe.skipIf(missing)(`the logo row${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('chooses a logo file, shows its name, clears it, and makes the video with it', async () => {
    await openReview(page, app.url, /Logo row/, 'clicks');
    await page.getByRole('button', { name: 'Make videos…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make videos from the picks' });
    await dialog.getByRole('button', { name: /^Make 1 video for \d+ credits$/ }).waitFor();

    await dialog.getByRole('button', { name: 'Choose file…' }).click();
    await expect
      .poll(() => dialog.getByTitle(join(dir, 'brand-mark.png')).textContent())
      .toBe('brand-mark.png');
    await dialog.getByRole('button', { name: 'Clear the logo brand-mark.png' }).click();
    await dialog.getByLabel('Logo URL').waitFor();
    await dialog.getByRole('button', { name: 'Choose file…' }).click();
    await dialog.getByRole('button', { name: 'Clear the logo brand-mark.png' }).waitFor();
    await expectAccessible(page, 'Make videos with a logo file');

    const make = dialog.getByRole('button', { name: /^Make 1 video for \d+ credits$/ });
    await make.click();
    const db = new Database(join(dir, 'data', 'adbatch.db'), { readonly: true });
    try {
      const video = () =>
        db
          .prepare("SELECT state, settings, request FROM jobs WHERE batch_id = ? AND kind = 'video'")
          .get(batchId) as { state: string; settings: string; request: string } | undefined;
      await expect.poll(() => video()?.state, { timeout: 60_000 }).toBe('done');
      expect(JSON.parse(video()!.settings).logoFile.startsWith(join(dir, 'data', 'logos'))).toBe(true);
      expect(JSON.parse(video()!.request).logoUrl).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]{48}\.png$/,
      );
    } finally {
      db.close();
    }

    // The logo chosen stays: Make videos starts from the videos last made from the picks (issue 27).
    // Made, the app shows the batch's page: back to its Review.
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.getByRole('button', { name: 'Make videos…' }).click();
    const again = page.getByRole('dialog', { name: 'Make videos from the picks' });
    const logos = join(dir, 'data', 'logos');
    await expect
      .poll(async () => (await again.locator('.logo-file').getAttribute('title'))?.startsWith(logos))
      .toBe(true);
  }, 90_000);
});
