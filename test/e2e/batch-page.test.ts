import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch, pickResults, untilFinished } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { checkAllLooks } from './browser.ts';

// Issue 31, point 2, in Chromium: the batch page fits its content. A batch of the 13 example products, shot
// at 4:5, whose first product's video was made twice (the first refused by the service, the second made),
// and a second product's video made once: each product one compact row (its name, its states, its results
// at their aspect, its videos as tiles of their own), the failed attempt folded under the success and
// opened on demand (and kept open when scrolled out of view and back), at least eight products in view at 1280 x 800, and no row's tiles over the next row's,
// at 1280 x 800 and 1920 x 1080, light and dark. It once hid the names, drew new videos over the next row
// and gave a running product 150 to 260 px.

let app: AppServer;
let page: Page;

const VIDEO = { duration: 5, resolution: '480p', mode: 'product_only', aspectRatio: null } as const;

/** Picks every shot of these products and makes their videos from the picks; waits for the batch to end. */
async function videosOf(batchId: string, products: string[]): Promise<void> {
  const { items } = await callCore(app.core, 'review:get', { batchId, filter: { kind: 'shot' } });
  await pickResults(
    app.core,
    batchId,
    items.filter((item) => products.includes(item.productName)).map((item) => item.id),
  );
  await callCore(app.core, 'videos:create', { batchId, video: VIDEO });
  await untilFinished(app.core, batchId);
}

const { missing } = appInChromium('batch-page', {
  ready: async (ui) => {
    ({ app, page } = ui);
    const batchId = await finishedBatch(app.core, {
      inputs: [EXAMPLES_DIR],
      shoot: { ...QUICK_SHOOT, shots: 4, aspectRatio: '4:5' },
      name: 'Videos again',
    });
    // The service refuses the first video's create (a definite 400: nothing made, nothing charged), so the
    // first product's video fails; made again, it succeeds.
    // The app's Sandbox account is the embedded sandbox, which keeps its port in the data folder.
    const port = (await readFile(join(ui.dir, 'data', 'sandbox', 'port'), 'utf8')).trim();
    const fault = await fetch(`http://127.0.0.1:${port}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/v1/videos', action: 'status', status: 400, times: 1 }),
    });
    expect(fault.status).toBe(201);
    await videosOf(batchId, ['bottles']);
    await videosOf(batchId, ['bottles', 'hat']);
  },
  open: false,
  timeoutMs: 300_000,
});

/** What a look shows of the list's rows: how many are whole in the window, and what overlaps or is hidden. */
function measureRows(target: Page) {
  return target.evaluate(() => {
    const list = document.querySelector('[data-testid="batch-products"]')!.getBoundingClientRect();
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="batch-products"] .product-row')]
      .map((row) => ({ row, box: row.getBoundingClientRect() }))
      .sort((a, b) => a.box.top - b.box.top);
    const troubles: string[] = [];
    let whole = 0;
    rows.forEach(({ row, box }, index) => {
      const name = row.querySelector<HTMLElement>('.product-name');
      const label = name?.textContent ?? `row ${index}`;
      if (
        !name ||
        name.getBoundingClientRect().width === 0 ||
        name.scrollWidth > name.clientWidth ||
        name.scrollHeight > name.clientHeight
      ) {
        troubles.push(`${label}: name hidden or cut`);
      }
      const next = rows[index + 1];
      if (next && next.box.top < box.bottom - 0.5) troubles.push(`${label}: over the next row`);
      for (const part of row.querySelectorAll<HTMLElement>(
        '.result-tile, .product-name, .job, .job-note, .earlier-attempts',
      )) {
        const inner = part.getBoundingClientRect();
        // What a closed disclosure holds is not drawn (Chromium may still lay it out).
        if (!part.checkVisibility()) continue;
        if (inner.bottom > box.bottom + 0.5 || inner.right > box.right + 0.5) {
          troubles.push(`${label}: ${part.className} outside its row`);
        }
      }
      if (
        box.top >= Math.max(0, list.top) - 0.5 &&
        box.bottom <= Math.min(window.innerHeight, list.bottom) + 0.5
      ) {
        whole++;
      }
    });
    return { whole, troubles };
  });
}

const row = (product: string) =>
  page
    .getByTestId('batch-products')
    .locator('.product-row')
    .filter({ has: page.locator('.product-name', { hasText: new RegExp(`^${product}$`) }) });

describe.skipIf(missing)(`the batch page fits its content${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows a compact row a product, videos as tiles, the failed attempt folded under the success', async () => {
    await page.goto(app.url);
    await page.getByRole('button', { name: /Videos again/ }).click();
    await expect.poll(() => page.getByTestId('batch-progress').textContent()).toMatch(/^13 of 13/);
    const bottles = row('bottles');
    await expect.poll(() => bottles.locator('.result-tile.video').count()).toBe(1);

    // The shots at their aspect (4:5), the video a tile of its own that opens it in Review.
    const shot = bottles.getByRole('button', { name: 'bottles, shot 1: open in Review' });
    const box = (await shot.boundingBox())!;
    expect(Math.abs(box.width / box.height - 4 / 5)).toBeLessThan(0.03);
    const video = bottles.getByRole('button', { name: 'bottles, video 1: open in Review' });
    // Its first frame, at the video's own aspect, the tile as tall as the shots'.
    const frame = video.locator('video');
    await expect
      .poll(() => frame.evaluate((element: HTMLVideoElement) => element.readyState))
      .toBeGreaterThan(0);
    const drawn = await frame.evaluate((element: HTMLVideoElement) => {
      const at = element.getBoundingClientRect();
      return {
        height: at.height,
        ratio: at.width / at.height,
        own: element.videoWidth / element.videoHeight,
      };
    });
    expect(drawn.height).toBe(box.height);
    expect(Math.abs(drawn.ratio - drawn.own)).toBeLessThan(0.03);

    // The failed attempt: folded under the success, said as such, and readable once opened.
    const earlier = bottles.locator('details.earlier-attempts');
    expect(await earlier.locator('summary').textContent()).toBe('1 earlier attempt');
    const failedLine = earlier.locator('.earlier-attempt');
    expect(await failedLine.isVisible()).toBe(false);
    // The service refused that create (HTTP 400): nothing was charged, and no refund is claimed.
    expect(await bottles.locator('.job-state').allTextContents()).toEqual([
      'done',
      'done',
      'failed (not charged)',
    ]);
    expect(await bottles.locator('.job:visible .job-state').allTextContents()).toEqual(['done', 'done']);
    // Nothing to retry: a later video made it good (core offers nothing, issue 27).
    expect(await bottles.locator('.job-actions').count()).toBe(0);

    const looks: Record<string, { whole: number; troubles: string[] }> = {};
    await checkAllLooks(page, '06-batch-videos-again', 'Batch (videos made again)', async (look) => {
      looks[look] = await measureRows(page);
    });
    for (const [look, seen] of Object.entries(looks)) {
      expect(seen.troubles, look).toEqual([]);
      expect(seen.whole, look).toBeGreaterThanOrEqual(8);
    }

    await earlier.locator('summary').click();
    await expect.poll(() => failedLine.isVisible()).toBe(true);
    expect(await failedLine.locator('.job-kind').textContent()).toBe('video');
    expect(await failedLine.locator('.job-state').textContent()).toBe('failed (not charged)');
    expect(await failedLine.locator('.job-reason').textContent()).toMatch(/400/);
    // Opened, the row grows to hold it: still nothing over the next row.
    await expect.poll(async () => (await measureRows(page)).troubles).toEqual([]);
    await checkAllLooks(
      page,
      '06b-batch-earlier-attempt',
      'Batch (an earlier attempt opened)',
      async (look) => {
        expect((await measureRows(page)).troubles, look).toEqual([]);
      },
    );

    // Scrolled out of view and back, it is still open: the list drops the rows out of view, not what the
    // designer opened. (At 480 px tall the 13 rows no longer all fit with the list's overscan.)
    await page.setViewportSize({ width: 1280, height: 480 });
    const list = page.getByTestId('batch-products');
    await list.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect.poll(() => bottles.count()).toBe(0);
    await list.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect.poll(() => failedLine.isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The video's tile opens Review on the video.
    await video.click();
    await expect
      .poll(() => page.locator('.tile[aria-current="true"]').textContent())
      .toContain('bottles, video 1');
  }, 120_000);
});
