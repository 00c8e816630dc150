import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DAY_MS, monthOf } from '../../src-main/shared/usage-period.ts';
import type { AppServer } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore } from '../support/core-harness.ts';
import { productJobs, withQueueStore } from '../support/job-states.ts';
import { newBatch, products, SHOOT_PRICE, submitAndAccept } from '../unit/core/queue/store-fixtures.ts';
import { checkLooks } from './browser.ts';

// Issue 31, point 6, in Chromium: the status line (account, balance, the Sandbox's mark) under every screen,
// one line high; Settings' fields that save themselves say "Saved", or why not in words; Usage draws a
// refund on the day it happened, and on no other. The ledger is the app's own database, written before the
// app starts by the queue's store as the engine writes it, at times the test chooses: last month, two shoots
// charged on the 10th, one of them refunded on the 12th.

const HOUR_MS = 3_600_000;
/** Last month, whatever today is: every day of it is over, and none is today. */
const LAST_MONTH = monthOf(monthOf(Date.now()).from - 1);
const CHARGED_ON = LAST_MONTH.from + 9 * DAY_MS;
const REFUNDED_ON = LAST_MONTH.from + 11 * DAY_MS;

let page: Page;
let app: AppServer;

const { missing } = appInChromium('status-words', {
  prepare: async (dir) => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { recursive: true });
    withQueueStore(dataDir, (ctx) => {
      ctx.clock.now = CHARGED_ON + 10 * HOUR_MS;
      const batch = ctx.store.createBatch(
        newBatch({
          name: 'Refunded caps',
          video: null,
          libraryDir: join(dir, 'library'),
          products: products(2),
        }),
      );
      const [refunded, kept] = productJobs(ctx, batch.id);
      submitAndAccept(ctx, refunded!.shoot.id);
      submitAndAccept(ctx, kept!.shoot.id);
      // Two days later, in the afternoon: the service reports the first one failed, and refunds it.
      ctx.clock.now = REFUNDED_ON + 15 * HOUR_MS;
      ctx.store.jobs.failRemote(refunded!.shoot.id, 'failed', {
        code: 'generation_failed',
        message: 'failed',
      });
      ctx.store.batches.setStatus(batch.id, 'finished');
    });
    return undefined;
  },
  ready: (ui) => {
    ({ app, page } = ui);
  },
});

const statusLine = () => page.getByRole('contentinfo');
const sidebar = () => page.getByRole('navigation', { name: 'Main' });

/** What the save status named by the field's aria-describedby says (its last id). */
async function savedWords(label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const status = page.locator(`[id="${ids.split(' ').at(-1)}"]`);
  expect(await status.getAttribute('role')).toBe('status');
  expect(await status.getAttribute('aria-live')).toBe('polite');
  return (await status.textContent()) ?? '';
}

/** Types into a field and leaves it by the keyboard, as a designer does. */
async function typeAndLeave(label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(text);
  await page.keyboard.press('Tab');
}

describe.skipIf(missing)(`status line, saving and words${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows the account, its balance and that the Sandbox charges nothing under every screen, one line high', async () => {
    const screens = ['Batches', 'New batch', 'Usage', 'Requests', 'Settings'];
    for (const name of screens) {
      await sidebar().getByRole('button', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expect
        .poll(() => statusLine().textContent(), { message: name })
        .toBe('Account: SandboxBalance: 5,000 creditsSandbox: nothing is charged');
      const box = (await statusLine().boundingBox())!;
      expect(box.height, name).toBeLessThanOrEqual(28);
      expect(box.y + box.height, name).toBe(page.viewportSize()!.height);
    }
    // A batch's own page too.
    await sidebar().getByRole('button', { name: 'Batches', exact: true }).click();
    await page.getByRole('button', { name: /Refunded caps/ }).click();
    await page.getByRole('heading', { name: 'Refunded caps' }).waitFor();
    expect(await statusLine().getByTestId('status-sandbox').isVisible()).toBe(true);
    // The Sandbox has no key of the user's: none is hinted at.
    expect(await statusLine().textContent()).not.toContain('key');
  }, 90_000);

  it('says Saved beside a Settings field once it is kept, and the reason in words when it is not', async () => {
    await sidebar().getByRole('button', { name: 'Settings', exact: true }).click();
    const margin = 'Leave room for other apps using the same key (%)';
    await page.getByLabel(margin, { exact: true }).waitFor();

    await typeAndLeave(margin, '80');
    await expect.poll(() => savedWords(margin)).toBe('Not saved: a whole number from 0 to 50.');
    expect((await callCore(app.core, 'settings:get')).budgetMarginPercent).toBe(0);

    await typeAndLeave(margin, '10');
    await expect.poll(() => savedWords(margin)).toBe('Saved');
    expect((await callCore(app.core, 'settings:get')).budgetMarginPercent).toBe(10);

    await typeAndLeave('Allowed hosts', 'photos office.lan');
    await expect
      .poll(() => savedWords('Allowed hosts'))
      .toBe('Not saved: “photos office.lan” is not a host name or address, with a port if you like.');
    await typeAndLeave('Allowed hosts', 'photos.office.lan\n192.168.1.20:8080');
    await expect.poll(() => savedWords('Allowed hosts')).toBe('Saved');
    expect((await callCore(app.core, 'settings:get')).allowedHosts).toEqual([
      'photos.office.lan',
      '192.168.1.20:8080',
    ]);

    // On by default: a tick taken off is saved at once, and says so.
    const csv = page.getByLabel(/^CSV files for Excel/);
    await csv.uncheck();
    await expect.poll(() => page.locator('#bom-saved').textContent()).toBe('Saved');
    expect((await callCore(app.core, 'settings:get')).csvBom).toBe(false);

    await checkLooks(page, '31-settings-saved', 'Settings, saved and refused');
  }, 90_000);

  it('draws a refund on the day it happened, and on no other', async () => {
    await sidebar().getByRole('button', { name: 'Usage', exact: true }).click();
    await page.getByRole('button', { name: 'Last month' }).click();
    const days = page.getByTestId('usage-days');
    await days.waitFor({ state: 'attached' });
    // The chart's figures: the Sandbox's charges (its column, the first) and the refunds (the last), a day a row.
    const [charged, refunds] = await days
      .locator('tbody tr')
      .evaluateAll((rows) =>
        [1, -1].map((column) =>
          rows.map((row) => Number([...row.children].at(column)?.textContent ?? 'NaN')),
        ),
      );
    const chargedDay = (CHARGED_ON - LAST_MONTH.from) / DAY_MS;
    const refundedDay = (REFUNDED_ON - LAST_MONTH.from) / DAY_MS;
    const daysWith = (figures: number[]) =>
      figures.flatMap((credits, day) => (credits > 0 ? [{ day, credits }] : []));
    expect(daysWith(charged!)).toEqual([{ day: chargedDay, credits: 2 * SHOOT_PRICE }]);
    expect(daysWith(refunds!)).toEqual([{ day: refundedDay, credits: SHOOT_PRICE }]);

    // The chart: one bar of charges over the 10th's slot of the axis, one of refunds under the 12th's.
    const chart = page.locator('.usage-chart');
    const plot = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
    const slot = plot.width / refunds!.length;
    const barsOf = async (series: string) => {
      const bars = chart.locator(`.${series} path`);
      await expect.poll(() => bars.count(), { message: series }).toBe(1);
      const box = (await bars.first().boundingBox())!;
      return {
        slot: Math.floor((box.x + box.width / 2 - plot.x) / slot),
        top: box.y,
        bottom: box.y + box.height,
      };
    };
    const chargedBar = await barsOf('usage-charged');
    const refundBar = await barsOf('usage-refunds');
    expect(chargedBar.slot).toBe(chargedDay);
    expect(refundBar.slot).toBe(refundedDay);
    // Charges stand on the axis, the refund hangs from it.
    expect(refundBar.top).toBeGreaterThanOrEqual(chargedBar.bottom - 1);

    await checkLooks(page, '42-usage-refund-day', 'Usage, a refund on its day');
  }, 90_000);

  it('tells how to connect an assistant on Requests, with no file path', async () => {
    await sidebar().getByRole('button', { name: 'Requests', exact: true }).click();
    const empty = page.getByText(/An AI assistant connected to Adbatch/);
    await empty.waitFor();
    expect(await empty.textContent()).not.toMatch(/\.md\b|docs\//);
    await checkLooks(page, '50-requests-empty', 'Requests, none yet');
    await page.getByRole('button', { name: 'Settings, under Agents' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  }, 90_000);
});
