import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { type SmallDisk, smallDisk } from '../support/small-disk.ts';
import { checkLooks } from './browser.ts';

// Issue 17 in the app: a batch whose library's disk is full shows why it paused, in words, with Resume;
// once there is room the app goes on by itself and the batch finishes.

let disk: SmallDisk;
let app: AppServer;
let page: Page;

const { missing } = appInChromium('disk', {
  prepare: (dir) => {
    disk = smallDisk(dir, { sizeBytes: 64 * 1024 * 1024, freeBytes: 48 * 1024 });
    console.log(`e2e library faults: the library is on a ${disk.kind}`);
    return { release: () => disk.close() };
  },
  ready: (ui) => {
    ({ app, page } = ui);
  },
  open: false,
});

describe.skipIf(missing)(`a full disk, in the app${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows the pause and its reason with Resume, then finishes by itself once there is room', async () => {
    await callCore(app.core, 'settings:set', { libraryDir: disk.library });
    const scan = await callCore(app.core, 'ingest:scan', { inputs: [join(EXAMPLES_DIR, 'bottles')] });
    const batch = await callCore(app.core, 'batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Bottles on a full disk',
    });
    await expect
      .poll(async () => (await callCore(app.core, 'batches:get', { id: batch.id })).statusReason)
      .toBe('library');

    await page.goto(app.url);
    await page.getByRole('button', { name: /Bottles on a full disk/ }).click();
    const reason = page.getByText(
      /The disk that holds the library .* is full: free about \d+ MB and resume\./,
    );
    await expect.poll(() => reason.isVisible()).toBe(disk.kind === 'tmpfs');
    await expect.poll(() => page.getByText('cannot save results').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true);
    expect(await page.getByText('paid, waiting to be saved').count()).toBe(1);
    await checkLooks(page, '12-batch-paused-disk-full', 'Batch (paused: disk full)');

    await disk.mend();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Bottles on a full disk' }).isVisible())
      .toBe(true);
    await expect
      .poll(async () => (await callCore(app.core, 'batches:get', { id: batch.id })).status)
      .toBe('finished');
    await expect.poll(() => reason.count()).toBe(0);
  }, 90_000);
});
