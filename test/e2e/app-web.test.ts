import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killChildren } from '../support/child-process.ts';
import { adbatch } from '../support/cli.ts';
import { makeProductFolders } from '../support/product-folders.ts';
import { designerEnv, startWebApp, type WebApp } from '../support/web-app.ts';
import { browserMissing, expectAccessible, openChromiumPage } from './browser.ts';

// `npm run app:web` as a designer uses it (issue 31, point 1): src-main/web/main.ts in a process of its own,
// with a home of the test's (HOME) and nothing else said, so it takes the data folder the CLI takes by
// default. A batch `adbatch run` made there (as `npm run demo` does) shows; Settings and batches are kept
// across a restart; folders are added by a typed path or with the folder browser, which shows the home and
// nothing out of it; a dropped file, which carries no path in a browser, is answered with what works.

const missing = browserMissing();
let home: string;
let outside: string;
let env: NodeJS.ProcessEnv;
let browser: Browser;
let page: Page;
let web: WebApp | null = null;

const startWeb = () => startWebApp(env);

/** The app loaded afresh: the same address with its token would only move within the page as it was. */
async function openApp(): Promise<void> {
  await page.goto(web!.url);
  await page.reload();
}

async function openNewBatch(): Promise<void> {
  await openApp();
  await page.getByRole('button', { name: 'New batch' }).first().click();
}

beforeAll(async () => {
  if (missing) return;
  home = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-e2e-app-web-home-')));
  outside = await mkdtemp(join(tmpdir(), 'adbatch-e2e-app-web-outside-'));
  env = designerEnv(home);
  await makeProductFolders(join(home, 'Shoots', 'Spring'), 2);
  await mkdir(join(home, 'Shoots', '.cache'));
  await makeProductFolders(outside, 1);
  // A link that leads out of the home: the browser must not show it, nor go through it.
  await symlink(outside, join(home, 'Shoots', 'Elsewhere'));
  // As `npm run demo` does: a batch on the data folder nothing named.
  const run = await adbatch(
    [
      'run',
      join(home, 'Shoots', 'Spring'),
      '--sandbox',
      '--time-scale',
      '0.02',
      '--style',
      'classic',
      '--shots',
      '1',
      '--yes',
      '--name',
      'Spring from the CLI',
    ],
    { env },
  );
  expect(run.code, run.stderr).toBe(0);
  ({ browser, page } = await openChromiumPage());
  web = await startWeb();
}, 180_000);

afterAll(async () => {
  killChildren();
  await browser?.close();
  for (const dir of [home, outside]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(missing)(`npm run app:web${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows the batch the CLI made on the same data folder, and keeps batches and Settings across a restart', async () => {
    const dataDir = join(home, '.local', 'share', 'adbatch');
    expect(web!.child.output()).toContain(
      `Data folder: ${dataDir} (the desktop app's and the command line's)`,
    );
    await page.goto(web!.url);
    await page.getByRole('button', { name: /Spring from the CLI/ }).waitFor();

    await page.getByRole('button', { name: 'Settings' }).click();
    const hosts = page.getByRole('textbox', { name: /Allowed hosts/ });
    await hosts.fill('photos.office.lan');
    await hosts.blur();
    // On by default: turned off, it must stay off. (It shows the saved state, once core has answered.)
    await page.getByRole('checkbox', { name: /Excel/ }).click();
    // Saved in the desktop app's preferences file, in the data folder.
    const saved = async () => {
      const text = await readFile(join(dataDir, 'preferences.json'), 'utf8').catch(() => '{}');
      return JSON.parse(text).settings ?? {};
    };
    await expect.poll(saved).toMatchObject({ allowedHosts: ['photos.office.lan'], csvBom: false });

    await web!.child.kill();
    web = await startWeb();
    await page.goto(web.url);
    await page.getByRole('button', { name: /Spring from the CLI/ }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: /Allowed hosts/ }).inputValue())
      .toBe('photos.office.lan');
    expect(await page.getByRole('checkbox', { name: /Excel/ }).isChecked()).toBe(false);
  }, 120_000);

  it('adds a folder by its typed path', async () => {
    await openNewBatch();
    await page.getByRole('textbox', { name: 'Folder or file path' }).fill(join(home, 'Shoots', 'Spring'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.locator('#plan-title').textContent()).toBe('2 products, 2 photos');
  }, 60_000);

  it('browses the home with the folder browser, never out of it, and adds the folder shown', async () => {
    await openNewBatch();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose a folder' });
    const where = sheet.getByTestId('folder-browser-path');
    await expect.poll(() => where.textContent()).toBe(home);
    // The top: no way above the home.
    expect(await sheet.getByRole('button', { name: /Up to the folder above/ }).count()).toBe(0);
    await expectAccessible(page, 'New batch (folder browser)');
    await sheet.getByRole('button', { name: 'Shoots', exact: true }).click();
    await expect.poll(() => where.textContent()).toBe(join(home, 'Shoots'));
    const folders = sheet.getByRole('list', { name: 'Folders inside' }).getByRole('button');
    // The hidden folder and the link out of the home are not shown.
    expect(await folders.allTextContents()).toEqual(['↑ Up to the folder above', 'Spring']);
    await sheet.getByRole('button', { name: 'Spring', exact: true }).click();
    await expect.poll(() => where.textContent()).toBe(join(home, 'Shoots', 'Spring'));
    await sheet.getByRole('button', { name: 'Add this folder' }).click();
    await expect.poll(() => page.locator('#plan-title').textContent()).toBe('2 products, 2 photos');
    expect(await sheet.count()).toBe(0);
  }, 60_000);

  it("chooses an export's folder with the folder browser", async () => {
    await openApp();
    await page.getByRole('button', { name: /Spring from the CLI/ }).click();
    await page.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.getByRole('button', { name: 'Choose folder…' }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose a folder' });
    await sheet.getByRole('button', { name: 'Shoots', exact: true }).click();
    await expect
      .poll(() => sheet.getByTestId('folder-browser-path').textContent())
      .toBe(join(home, 'Shoots'));
    await sheet.getByRole('button', { name: 'Export here' }).click();
    await expect
      .poll(() => dialog.getByTestId('export-destination').textContent())
      .toBe(join(home, 'Shoots'));
  }, 120_000);

  it('answers a dropped file, which carries no path in a browser, with the way that works', async () => {
    await openNewBatch();
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['not a photo'], 'hero.jpg', { type: 'image/jpeg' }));
      return transfer;
    });
    await page.getByRole('region', { name: 'Add photos' }).dispatchEvent('drop', { dataTransfer: dropped });
    const line = page.getByRole('region', { name: 'Add photos' }).getByRole('status');
    await expect
      .poll(() => line.textContent())
      .toBe(
        "A browser does not tell Adbatch where dropped files are: type the folder's path above and press Add, or use Open Folder… to browse.",
      );
  }, 60_000);
});
