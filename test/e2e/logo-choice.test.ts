import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR, startAppServer } from '../harness/app-server.ts';
import { callCore, untilFinished } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { browserMissing, expectAccessible, launchChromium } from './browser.ts';

// The Make videos dialog's logo row, in Chromium: "Choose file…" asks main's image dialog (here its
// stand-in answers a real PNG), the file's name shows, the video is made with it, and Clear goes back to the
// URL field. What reaches the service is tested in test/integration/app/served-links.test.ts.

const missing = browserMissing();
let dir: string;
let app: AppServer;
let browser: Browser;
let page: Page;
let batchId: string;

beforeAll(async () => {
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), 'adbatch-e2e-logo-'));
  const logo = join(dir, 'brand-mark.png');
  await writeFile(
    logo,
    await sharp({ create: { width: 200, height: 80, channels: 4, background: '#c21e3c' } })
      .png()
      .toBuffer(),
  );
  app = await startAppServer({ dir: join(dir, 'app'), pickImage: logo });
  const scan = await callCore(app.core, 'ingest:scan', { inputs: [join(EXAMPLES_DIR, 'hat')] });
  const batch = await callCore(app.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: 'sandbox',
    shoot: QUICK_SHOOT,
    video: null,
    includeDone: true,
    name: 'Logo row',
  });
  batchId = batch.id;
  await untilFinished(app.core, batchId);
  const [shot] = (await callCore(app.core, 'review:get', { batchId })).items;
  await callCore(app.core, 'review:decide', { batchId, itemIds: [shot!.id], change: { flag: 'picked' } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(missing)(`the logo row${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('chooses a logo file, shows its name, clears it, and makes the video with it', async () => {
    await page.goto(app.url);
    await page.getByRole('button', { name: /Logo row/ }).click();
    await page.getByRole('button', { name: 'Review', exact: true }).click();
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
    const db = new Database(join(dir, 'app', 'data', 'adbatch.db'), { readonly: true });
    try {
      const video = () =>
        db
          .prepare("SELECT state, settings, request FROM jobs WHERE batch_id = ? AND kind = 'video'")
          .get(batchId) as { state: string; settings: string; request: string } | undefined;
      await expect.poll(() => video()?.state, { timeout: 60_000 }).toBe('done');
      expect(JSON.parse(video()!.settings).logoFile.startsWith(join(dir, 'app', 'data', 'logos'))).toBe(true);
      expect(JSON.parse(video()!.request).logoUrl).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]{48}\.png$/,
      );
    } finally {
      db.close();
    }
  }, 90_000);
});
