import { copyFile, mkdir, truncate, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { NewProduct } from '../../src-main/core/queue/types.ts';
import type { AppServer } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, pickResults } from '../support/core-harness.ts';
import { INTO_STATE, productJobs, withQueueStore } from '../support/job-states.ts';
import { workbookBytes } from '../support/workbook.ts';
import { newBatch } from '../unit/core/queue/store-fixtures.ts';
import { expectAccessible, holdAnswers, SCREENSHOTS, screenshot } from './browser.ts';

// Issue 29, point 1, in Chromium: a batch of two catalog products (their SKUs, handles and vendor read at
// ingest) and three folders that have none. The product sheet opens from the batch's page, says which
// products have no SKU, and a column of SKUs copied from a spreadsheet is pasted into the first folder's SKU
// cell: it fills the three rows below it in one change, stored by core, and the Amazon plan that was blocked
// for them names files by those SKUs. The sheet is saved at 1280x800, light and dark, into docs/screenshots/.

const EXAMPLES = resolve(import.meta.dirname, '../../resources/examples');
const DOCS_SCREENSHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

let page: Page;
let app: AppServer;
let batchId: string;
let dir: string;

function example(name: string, folder: string, file: string, identity?: NewProduct['identity']): NewProduct {
  return {
    name,
    sourceDir: join(EXAMPLES, folder),
    photos: [{ path: join(EXAMPLES, folder, file), url: null }],
    ...(identity ? { identity } : {}),
  };
}

const { missing } = appInChromium('product-sheet', {
  prepare: async (dir) => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { recursive: true });
    const results: string[] = [];
    batchId = withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(
        newBatch({
          name: 'Spring catalog',
          video: null,
          libraryDir: join(dir, 'library'),
          products: [
            example('Red cap', 'cap-red', 'solidus_cap_red_1.png', {
              sku: 'SOL-CAP-RED',
              handle: 'solidus-cap-red',
              title: 'Solidus Cap, Red',
              brand: 'Solidus',
              alt: 'A red six-panel cap',
            }),
            example('Canvas tote', 'tote', 'solidus_canvas_tote.png', {
              sku: 'SOL-TOTE',
              handle: 'canvas-tote',
              title: 'Canvas Tote',
              brand: 'Solidus',
            }),
            example('mug-set', 'mug-set', 'solidus_mug_set.png'),
            example('notebook', 'notebook', 'solidus_notebook.png'),
            example('hat', 'hat', 'solidus_hat.png'),
          ],
        }),
      );
      for (const { shoot, video } of productJobs(ctx, batch.id)) {
        INTO_STATE.done(ctx, shoot, video);
        results.push(join(dir, 'library', `results/${shoot.id}-1.png`));
      }
      ctx.store.batches.setStatus(batch.id, 'finished');
      return batch.id;
    });
    // Each shoot's one result on disk, a real photo: what an export plan reads the size of.
    await mkdir(join(dir, 'library', 'results'), { recursive: true });
    for (const result of results) await copyFile(join(EXAMPLES, 'hat', 'solidus_hat.png'), result);
    return undefined;
  },
  ready: (ui) => {
    ({ app, page, dir } = ui);
  },
  open: false,
});

const sku = (product: string) => page.getByRole('textbox', { name: `SKU of ${product}`, exact: true });

/** Spring catalog's product sheet, opened as a designer does: the batch in the list, then Products… */
async function openSheet() {
  await page
    .getByTestId('batches-list')
    .getByRole('button', { name: /Spring catalog/ })
    .click();
  await page.getByRole('button', { name: 'Products…' }).click();
  return page.getByRole('dialog', { name: 'Products of Spring catalog' });
}

/** What a spreadsheet puts on the clipboard for a column of cells, pasted where the keyboard is. */
async function pasteInto(cell: ReturnType<typeof sku>, text: string): Promise<void> {
  await cell.focus();
  await cell.evaluate((input, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    input.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe.skipIf(missing)(`the product sheet${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('is filled by pasting a column from a spreadsheet, and unblocks Amazon names', async () => {
    const amazon = {
      scope: { batchIds: [batchId] },
      recipes: ['amazon-main'],
      destination: join(dir, 'exports'),
    };
    const { items } = await callCore(app.core, 'review:get', { batchId });
    await pickResults(
      app.core,
      batchId,
      items.map((item) => item.id),
    );
    const before = await callCore(app.core, 'export:plan', amazon);
    expect(before.blocking).toEqual([
      'Amazon main names files with {sku}, and 3 products have no SKU: mug-set, notebook, hat. Give them one in the product sheet (or adbatch products <batch> --from FILE).',
    ]);

    await page.goto(app.url);
    const sheet = await openSheet();
    await expect.poll(() => sku('Red cap').inputValue()).toBe('SOL-CAP-RED');
    expect(await sheet.getByTestId('products-lacking').textContent()).toBe(
      '3 of 5 products have no SKU: a recipe named by {sku} (Amazon) will not export them.',
    );
    // A guess is shown greyed where a cell is empty: the handle made from the name.
    expect(
      await page
        .getByRole('textbox', { name: 'Handle of notebook', exact: true })
        .getAttribute('placeholder'),
    ).toBe('notebook');

    // Three cells of a column, as Excel copies them (CRLF, a last line break).
    await pasteInto(sku('mug-set'), 'SOL-MUG-6\r\nSOL_NOTE/A5\r\nSOL-HAT\r\n');
    await expect.poll(() => sku('hat').inputValue()).toBe('SOL-HAT');
    expect(await sku('mug-set').inputValue()).toBe('SOL-MUG-6');
    expect(await sku('notebook').inputValue()).toBe('SOL_NOTE/A5');
    expect(await sheet.getByRole('status').textContent()).toBe('Pasted 3 rows.');
    expect(await sheet.getByTestId('products-lacking').count()).toBe(0);
    // A SKU Amazon's file names cannot hold (an underscore, a slash) is said where it is mended, and
    // refuses the Amazon export until it is: never a file Amazon's bulk upload drops.
    expect(await sheet.getByTestId('products-unnamable').textContent()).toBe(
      "1 of 5 products have a SKU Amazon's file names cannot hold (letters and digits only; dashes and spaces are left out): notebook (“SOL_NOTE/A5”).",
    );
    expect((await callCore(app.core, 'export:plan', amazon)).blocking).toEqual([
      "Amazon main names files as Amazon's bulk image upload reads them, {sku} in letters and digits only (dashes and spaces are left out), and 1 product's SKU has other characters, which Amazon would not take: notebook (“SOL_NOTE/A5”). Give it the ASIN, UPC or EAN (or a SKU of letters and digits) in the product sheet (or adbatch products <batch> --from FILE).",
    ]);
    await sku('notebook').fill('SOL-NOTE-A5');
    await sku('notebook').press('Enter');
    await expect.poll(() => sheet.getByTestId('products-unnamable').count()).toBe(0);
    // A UPC pasted from a spreadsheet that dropped its leading zero is said too (Amazon would match it to
    // no listing); typed whole, the word goes.
    await sku('hat').fill('36000291452');
    await sku('hat').press('Enter');
    await expect
      .poll(() => sheet.getByTestId('products-short-upc').textContent())
      .toBe(
        "1 of 5 products have a SKU of 11 digits, one short of a UPC, that reads as one with a 0 before: hat (“36000291452”, as a UPC 036000291452). A spreadsheet drops a UPC's leading zero, and Amazon finds a listing by its whole code: if it is a UPC, type its 12 digits.",
      );
    await sku('hat').fill('SOL-HAT');
    await sku('hat').press('Enter');
    await expect.poll(() => sheet.getByTestId('products-short-upc').count()).toBe(0);
    // A handle Shopify would not take is said as it is typed (its import file would leave the row out);
    // mended, the word goes.
    const handle = page.getByRole('textbox', { name: 'Handle of hat', exact: true });
    await handle.fill('Wool Hat');
    await handle.press('Enter');
    await expect
      .poll(() => sheet.getByTestId('products-bad-handles').textContent())
      .toBe(
        '1 of 5 products have a handle Shopify does not take (lower-case letters and digits, dashes between words): hat (“Wool Hat”).',
      );
    await handle.fill('wool-hat');
    await handle.press('Enter');
    await expect.poll(() => sheet.getByTestId('products-bad-handles').count()).toBe(0);

    // A brand and title typed into one cell each, kept as the keyboard leaves it.
    const brand = page.getByRole('textbox', { name: 'Brand of hat', exact: true });
    await brand.fill('Solidus');
    await brand.press('Enter');
    await expect
      .poll(async () => (await callCore(app.core, 'products:sheet', { batchId })).rows.at(-1)?.identity.brand)
      .toBe('Solidus');
    // Said where the sheet says what a paste did: the save under way, then kept.
    await expect.poll(() => sheet.getByRole('status').textContent()).toBe('Saved the Brand of hat.');

    const stored = await callCore(app.core, 'products:sheet', { batchId });
    expect(stored.rows.map((row) => row.identity.sku)).toEqual([
      'SOL-CAP-RED',
      'SOL-TOTE',
      'SOL-MUG-6',
      'SOL-NOTE-A5',
      'SOL-HAT',
    ]);
    const after = await callCore(app.core, 'export:plan', amazon);
    expect(after.blocking).toEqual([]);

    await mkdir(DOCS_SCREENSHOTS, { recursive: true });
    try {
      for (const [scheme, suffix] of [
        ['light', ''],
        ['dark', '-dark'],
      ] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: 1280, height: 800 });
        await screenshot(page, `60-product-sheet${suffix}`);
        await expectAccessible(page, `The product sheet (${scheme})`);
        await copyFile(
          join(SCREENSHOTS, `60-product-sheet${suffix}.png`),
          join(DOCS_SCREENSHOTS, `60-product-sheet${suffix}.png`),
        );
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }, 90_000);

  it('keeps what is typed on in a cell after Enter while its save is answered, and saves it', async () => {
    // The answer to the first save is held until more was typed in the cell, as on a busy core.
    const answers = await holdAnswers(page, 'products:update');
    await page.reload();
    const sheet = await openSheet();
    const title = page.getByRole('textbox', { name: 'Title of notebook', exact: true });
    await title.fill('Notebook A5');
    await title.press('Enter');
    await expect.poll(() => answers.count()).toBe(1);
    await title.pressSequentially(' lined');
    answers.release();
    await expect.poll(() => sheet.getByRole('status').textContent()).toBe('Saved the Title of notebook.');
    expect(await title.inputValue()).toBe('Notebook A5 lined');
    await title.press('Tab');
    await expect
      .poll(
        async () =>
          (await callCore(app.core, 'products:sheet', { batchId })).rows.find(
            (row) => row.name === 'notebook',
          )?.identity.title,
      )
      .toBe('Notebook A5 lined');
    expect(await title.inputValue()).toBe('Notebook A5 lined');
  }, 60_000);

  it('imports a sheet Excel saved again in German (semicolons, Windows-1252) with its accents, saying so', async () => {
    await page.reload();
    const sheet = await openSheet();
    // "Mütze" and "Café" in Windows-1252 (ü 0xFC, é 0xE9): bytes that are not UTF-8.
    const bytes = Buffer.concat([
      Buffer.from('Name;Title\r\nhat;Wollm', 'latin1'),
      Buffer.from([0xfc]),
      Buffer.from('tze\r\nmug-set;Tassen Caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('\r\n', 'latin1'),
    ]);
    await sheet
      .getByLabel('CSV file to import')
      .setInputFiles({ name: 'Produkte.csv', mimeType: 'text/csv', buffer: bytes });
    await expect
      .poll(() => sheet.getByRole('status').textContent())
      .toBe(
        'Read 2 of 5 products from the file. The file is not UTF-8: read as Windows-1252 ("Wollmütze", "Café"); if a name reads wrong, save the file from your spreadsheet as "CSV UTF-8" and use that file.',
      );
    const titles = Object.fromEntries(
      (await callCore(app.core, 'products:sheet', { batchId })).rows.map((row) => [
        row.name,
        row.identity.title,
      ]),
    );
    expect(titles).toMatchObject({ hat: 'Wollmütze', 'mug-set': 'Tassen Café' });
    expect(await page.getByRole('textbox', { name: 'Title of hat', exact: true }).inputValue()).toBe(
      'Wollmütze',
    );
  }, 60_000);

  it('refuses the workbook itself chosen where its CSV is asked for, and a file far too big, saying so; nothing changes', async () => {
    await page.reload();
    const sheet = await openSheet();
    const before = await callCore(app.core, 'products:sheet', { batchId });
    await sheet.getByLabel('CSV file to import').setInputFiles({
      name: 'Produkte.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await workbookBytes(),
    });
    await expect
      .poll(() => sheet.getByRole('alert').textContent())
      .toBe(
        'Produkte.xlsx is a spreadsheet’s own file (an Excel workbook, a Numbers or an OpenDocument sheet), which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file.',
      );
    expect(await callCore(app.core, 'products:sheet', { batchId })).toEqual(before);

    // A file far bigger than any sheet (sparse: its size without its bytes), refused before it is read.
    const huge = join(app.harness.dir, 'Alle Produkte.csv');
    await writeFile(huge, 'Name,SKU\n');
    await truncate(huge, 60_000_000);
    await sheet.getByLabel('CSV file to import').setInputFiles(huge);
    await expect
      .poll(() => sheet.getByRole('alert').textContent())
      .toBe(
        'Alle Produkte.csv is 57 MB: more than a product sheet holds (at most 48 MB, a row a product). Choose the sheet of a batch, saved as CSV.',
      );
    expect(await callCore(app.core, 'products:sheet', { batchId })).toEqual(before);
  }, 60_000);
});
