import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, startAppServer } from '../harness/app-server.ts';
import { type Child, killChildren, startChild } from '../support/child-process.ts';
import { finishedBatch } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { browserMissing, openChromiumPage, openReview } from './browser.ts';
import { activeTileIn, reviewGrid } from './review-grid.ts';

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
  await finishedBatch(app.core, {
    inputs: [join(EXAMPLES_DIR, 'mug-set')],
    shoot: { ...QUICK_SHOOT, shots: 4 },
    name: 'Killed mid-review',
  }).finally(() => app.close());
  ({ browser, page } = await openChromiumPage());
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
  const [, url] = (await child.waitFor(/at (http:\/\/127\.0\.0\.1:\d+\/\S+)/)) as RegExpMatchArray;
  return { child, url: url! };
}

async function openTheBatchReview(url: string): Promise<void> {
  await openReview(page, url, /Killed mid-review/, 'clicks');
  await page.getByTestId('review-grid').waitFor();
}

describe.skipIf(missing)(`a decision, then kill -9${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('is there when the app starts again', async () => {
    const first = await startApp();
    await openTheBatchReview(first.url);
    await page.locator('body').focus();
    // The keys act once the grid has a tile for them (the grid shows before its first page of results on a
    // loaded machine): the cursor is waited for, and its move, before the pick.
    await reviewGrid(page).locator('[aria-current="true"]').waitFor();
    const start = await activeTileIn(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => activeTileIn(page)).not.toBe(start);
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
    await openTheBatchReview(second.url);
    const tiles = page.getByTestId('review-grid').getByRole('button');
    await expect
      .poll(async () => (await tiles.allTextContents()).map((text) => text.includes('Picked')))
      .toEqual([false, true, false, false]);
    await second.child.kill();
  }, 90_000);
});
