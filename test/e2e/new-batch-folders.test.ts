import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, finishedBatch } from '../support/core-harness.ts';
import { makeProductFolders } from '../support/product-folders.ts';
import { PRODUCT_FIXTURES_DIR } from '../support/static-server.ts';
import { checkAllLooks } from './browser.ts';

// New batch on a folder as designers keep them (issue 14, point 11): a product folder with a `detail`
// folder inside, offered as a product of its own or as part of the product above and saying which it did,
// and a folder whose every photo is turned away, listed as dropped with the reasons; a library of Adbatch's
// among them is passed over, said in one line, and so is a shot Adbatch downloaded that the designer copied
// in beside their own photos, known by its bytes (issue 27, point 2).

let page: Page;
let root: string;
const { missing } = appInChromium('new-batch-folders', {
  prepare: async (dir) => {
    root = join(dir, 'shoot-folders');
    const shirt = join(root, 'linen-shirt');
    await mkdir(join(shirt, 'detail'), { recursive: true });
    await mkdir(join(root, 'broken'), { recursive: true });
    const photo = (n: number) => join(PRODUCT_FIXTURES_DIR, 'cap-red', `solidus_cap_red_${n}.png`);
    await copyFile(photo(1), join(shirt, 'front.png'));
    await copyFile(photo(2), join(shirt, 'back.png'));
    await copyFile(photo(3), join(shirt, 'detail', 'collar.png'));
    await writeFile(join(root, 'broken', 'front.png'), 'not a photo');
    // A library of Adbatch's moved beside them, known by its mark: its results are never offered.
    await mkdir(join(root, 'old library', 'Spring (abc123)', '001 cap'), { recursive: true });
    await writeFile(join(root, 'old library', '.adbatch-library'), '{"app":"Adbatch","kind":"library"}\n');
    await copyFile(photo(1), join(root, 'old library', 'Spring (abc123)', '001 cap', 'shot-1.png'));
    return { app: { pick: [root] } };
  },
  ready: async (ui) => {
    page = ui.page;
    // A batch shot here, and one of its shots copied into the linen shirt's folder by hand.
    await makeProductFolders(join(ui.dir, 'earlier'), 1);
    const batchId = await finishedBatch(ui.app.core, { inputs: [join(ui.dir, 'earlier')], name: 'Spring' });
    const { resultsFolder } = await callCore(ui.app.core, 'batches:get', { id: batchId });
    const shots = (await readdir(join(resultsFolder, '001 product-01'))).filter((name) =>
      /\.(png|jpe?g|webp)$/i.test(name),
    );
    await copyFile(
      join(resultsFolder, '001 product-01', shots[0]!),
      join(root, 'linen-shirt', 'ai-shot.png'),
    );
  },
});

describe.skipIf(missing)(`New batch on nested folders${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('offers a folder inside a product as its own product or as part of it, and lists the dropped', async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    const heading = page.locator('#plan-title');
    await expect.poll(() => heading.textContent()).toBe('2 products, 3 photos');
    const subfolders = page.getByTestId('subfolders');
    expect(await subfolders.locator('li').allTextContents()).toEqual([
      'linen-shirt/detail: a product of its own',
    ]);
    const dropped = page.getByTestId('dropped');
    expect(await dropped.locator('h3').textContent()).toBe(
      '1 product dropped: none of its photos can be used',
    );
    expect(await dropped.locator('li').textContent()).toMatch(/^broken: .+/);
    expect(await page.getByTestId('adbatch-folders').locator('li').allTextContents()).toEqual([
      "old library: Adbatch's own library",
      'ai-shot.png: a result Adbatch downloaded (product-01, in batch “Spring”)',
    ]);
    await checkAllLooks(page, '32-new-batch-folders', 'New batch (nested folders)');
    // The skipped lines as a designer scrolls down to them (below the fold at 1280x800).
    await checkAllLooks(page, '32-new-batch-folders-skipped', 'New batch (what Adbatch wrote, skipped)', () =>
      page
        .getByTestId('adbatch-folders')
        .locator('li')
        .last()
        .evaluate((line) => line.scrollIntoView({ block: 'center' })),
    );

    await subfolders.getByLabel('Each is part of the product above it').check();
    await expect.poll(() => heading.textContent()).toBe('1 product, 3 photos');
    expect(await subfolders.locator('li').allTextContents()).toEqual([
      'linen-shirt/detail: part of linen-shirt',
    ]);
    await page.getByTestId('quote-total').waitFor();
    expect(await page.getByTestId('quote-rows').getByRole('listitem').allTextContents()).toHaveLength(1);
  }, 90_000);
});
