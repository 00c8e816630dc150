import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { appInChromium } from '../support/app-fixture.ts';
import { TEST_PHOTO_HOSTS } from '../support/core-harness.ts';

// A large catalog's scan is cancelled from New batch (issue 28, point 3): the progress shows a Cancel
// button, and pressing it stops the scan (no photo is asked for beyond those already under way) and says
// so. The photo host holds every answer until the core has been told, so the scan is surely under way.

const ROWS = 200;
/** The checks a scan starts at once (the scan's default, twice the cores). */
const CONCURRENCY = Math.max(2, availableParallelism() * 2);

let page: Page;
const held: ServerResponse[] = [];
let holding = true;
let asked = 0;
let png: Buffer;
const server = createServer((_request, response) => {
  asked++;
  held.push(response);
  if (!holding) answerHeld();
  server.emit('asked');
});

function answerHeld(): void {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  }
}

const { missing } = appInChromium('scan-cancel', {
  prepare: async (dir) => {
    png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#8090a0' } })
      .png()
      .toBuffer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const catalog = join(dir, 'large.csv');
    const rows = Array.from({ length: ROWS }, (_, i) => `Shirt ${i},${base}/shirt-${i}.png`);
    await writeFile(catalog, `product,url\n${rows.join('\n')}\n`);
    // The photo host is on this computer: allowed by name, as a designer allows their own.
    return { app: { pick: [catalog], allowedHosts: TEST_PHOTO_HOSTS } };
  },
  ready: (ui) => {
    page = ui.page;
  },
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe.skipIf(missing)(`Cancelling a scan${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('stops a large catalog’s scan from its progress, and says so', async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    const firstAsked = once(server, 'asked');
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await firstAsked;
    // Its own scan's progress is shown (each event names its scan): the catalog's 200 URLs, known at once.
    await expect.poll(() => page.locator('.scanning').textContent()).toMatch(/Checking photos… 0 of 200/);
    await page.locator('.scanning').getByRole('button', { name: 'Cancel' }).click();
    // Said once the core has been told: the checks under way are answered now, and a scan still running
    // would go on to ask for the rest.
    await page.locator('.scanning').getByRole('button', { name: 'Cancelling…' }).waitFor();
    holding = false;
    answerHeld();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The scan was cancelled: nothing was planned.' })
      .waitFor();
    expect(await page.locator('.scanning').count()).toBe(0);
    expect(await page.locator('#plan-title').count()).toBe(0);
    expect(asked).toBeLessThanOrEqual(CONCURRENCY);
  });
});
