import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_ID } from '../../src-main/core/app/public-api.ts';
import type { Lease } from '../../src-main/core/lease.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { makeProductFolders } from '../support/product-folders.ts';
import { holdQueue } from '../support/queue-lease.ts';
import { checkAllLooks } from './browser.ts';

// Issue 27, point 1, as a designer meets it: New batch while another batch's jobs still wait their turn
// (another process holds the queue, as `adbatch run` beside the app would, and has not sent them yet). The
// total says what of the balance those jobs will take, in every look.

let lease: Lease | null = null;
let page: Page;

const ui = appInChromium('new-batch-promised', {
  prepare: (dir) => {
    lease = holdQueue(dir, 'adbatch run');
    return { release: () => lease?.release() };
  },
  ready: (started) => {
    page = started.page;
  },
});
const { missing } = ui;

describe.skipIf(missing)(`New batch beside waiting jobs${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it("says what of the balance another batch's jobs not yet charged will take", async () => {
    const { scanId } = await callCore(ui.app.core, 'ingest:scan', {
      inputs: await makeProductFolders(join(ui.dir, 'waiting'), 3),
    });
    await callCore(ui.app.core, 'batches:create', {
      scanId,
      accountId: SANDBOX_ACCOUNT_ID,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: false,
      name: 'Waiting its turn',
    });
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    const total = page.locator('.start-bar .total');
    await expect
      .poll(() => total.textContent())
      .toMatch(/of a balance of [\d,]+ credits, 3 credits of it promised to jobs not yet charged$/);
    await checkAllLooks(page, '29b-new-batch-promised', 'New batch (credits promised to waiting jobs)');
  }, 60_000);
});
