import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Lease } from '../../src-main/core/lease.ts';
import type { AppServer } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { holdQueue } from '../support/queue-lease.ts';
import { checkLooks } from './browser.ts';

// The app opened while another process drives its data folder (a script running `adbatch run`): it says
// who does, keeps showing the batches, and takes the queue over by itself once that process lets go.

let lease: Lease | null = null;
let app: AppServer;
let page: Page;

const { missing } = appInChromium('owner', {
  prepare: (dir) => {
    // Stands in for the other process: the lease is an OS lock, refused to a second taker in this process too.
    lease = holdQueue(dir, 'adbatch run');
    return { release: () => lease?.release() };
  },
  ready: (ui) => {
    ({ app, page } = ui);
  },
  open: false,
});

describe.skipIf(missing)(`the app beside another owner${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('says which process runs the batches, then takes over when it ends', async () => {
    await page.goto(app.url);
    const notice = page.getByRole('status').filter({ hasText: 'is running the batches' });
    await expect
      .poll(() => notice.textContent())
      .toContain(`adbatch run (pid ${process.pid}) is running the batches`);
    await checkLooks(page, '11-queue-held-by-cli', 'queue held by another process');
    // The notice takes its height from the screen below it: the empty Batches screen still fits, unscrolled.
    const content = page.locator('main.content');
    expect(await content.evaluate((element) => element.scrollHeight - element.clientHeight)).toBe(0);

    lease!.release();
    lease = null;
    await expect.poll(() => notice.count()).toBe(0);
  }, 60_000);
});
