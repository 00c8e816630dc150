import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, startAppServer } from '../harness/app-server.ts';
import { type Child, killChildren, startChild } from '../support/child-process.ts';
import { callCore, untilFinished } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { browserMissing, launchChromium } from './browser.ts';

// Issue 12, nothing lost: the app (the browser harness, in a process of its own) is killed (kill -9) the
// moment a pick shows on screen; started again on the same data folder, the pick is there.

const missing = browserMissing();
let dir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), 'adbatch-e2e-review-kill-'));
  // A finished batch to review, made once in this process; the app then runs in a child on the same folder.
  const app = await startAppServer({ dir });
  const scan = await callCore(app.core, 'ingest:scan', { inputs: [join(EXAMPLES_DIR, 'mug-set')] });
  const batch = await callCore(app.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: 'sandbox',
    shoot: { ...QUICK_SHOOT, shots: 4 },
    video: null,
    includeDone: true,
    name: 'Killed mid-review',
  });
  await untilFinished(app.core, batch.id);
  await app.close();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 90_000);

afterAll(async () => {
  killChildren();
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function startApp(): Promise<{ child: Child; url: string }> {
  const child = startChild(['--import', 'tsx', 'test/harness/app-web.ts'], {
    ...process.env,
    ADBATCH_HARNESS_DIR: dir,
  });
  const [, url] = (await child.waitFor(/at (http:\/\/127\.0\.0\.1:\d+\/\S+)/, 30_000)) as RegExpMatchArray;
  return { child, url: url! };
}

async function openReview(url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: /Killed mid-review/ }).click();
  await page.getByRole('button', { name: 'Review', exact: true }).click();
  await page.getByTestId('review-grid').waitFor();
}

describe.skipIf(missing)(`a decision, then kill -9${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('is there when the app starts again', async () => {
    const first = await startApp();
    await openReview(first.url);
    await page.locator('body').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('p');
    // The moment the pick shows as saved, the app dies. (A pick shows within the frame of its key, marked
    // busy until core has committed it: that mark going is what the designer may rely on.)
    await page
      .getByTestId('review-grid')
      .locator('.tile-picked:not([aria-busy])')
      .getByText('Picked')
      .waitFor();
    await first.child.kill();

    const db = new Database(join(dir, 'data', 'adbatch.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT flag FROM review_decisions').all()).toEqual([{ flag: 'picked' }]);
    } finally {
      db.close();
    }
    const second = await startApp();
    await openReview(second.url);
    const tiles = page.getByTestId('review-grid').getByRole('button');
    await expect
      .poll(async () => (await tiles.allTextContents()).map((text) => text.includes('Picked')))
      .toEqual([false, true, false, false]);
    await second.child.kill();
  }, 90_000);
});
