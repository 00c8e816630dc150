import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile } from '../../../src-main/core/db/open.ts';
import type { ExportRequest } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  refusalOf,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import {
  PRODUCT_FIXTURES_DIR,
  PRODUCT_PHOTOS,
  type StaticServer,
  startStaticServer,
} from '../../support/static-server.ts';

// Issue 29, point 1, through the handler map on a real SQLite file and a sandbox batch: a Shopify catalog
// with SKUs, handles, vendors and alt texts, and a folder that has none of them. The catalog's identity is
// stored at ingest; Amazon main, which names files by {sku}, is blocked in the plan naming the folder's
// product (never a `_.MAIN.jpg`) until a name pattern or the sheet gives it one; the sheet round-trips as
// CSV, refusing a row that names no product.

let h: CoreHarness;
let photos: StaticServer;
let batchId: string;

beforeAll(async () => {
  // The catalog's photo host is on this computer: allowed by name, as a designer allows their own.
  h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  photos = await startStaticServer();
  const catalog = join(h.dir, 'shop.csv');
  await writeFile(
    catalog,
    [
      'Handle,Title,Vendor,Variant SKU,Image Src,Image Position,Image Alt Text',
      `solidus-hat,Solidus Hat,Solidus,SOL-HAT-01,${photos.urlOf(PRODUCT_PHOTOS.hat)},1,A black bucket hat`,
      `canvas-tote,Canvas Tote,Solidus,SOL-TOTE-02,${photos.urlOf(PRODUCT_PHOTOS.tote)},1,`,
      '',
    ].join('\n'),
  );
  const folder = join(h.dir, 'photos', 'MUG-77_Mug Set');
  await mkdir(folder, { recursive: true });
  await copyFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.mug), join(folder, '1.png'));
  batchId = await finishedBatch(h.core, { inputs: [catalog, folder], name: 'Identity' });
  const items = (await callCore(h.core, 'review:get', { batchId })).items;
  await pickResults(
    h.core,
    batchId,
    items.map((item) => item.id),
  );
}, 120_000);

afterAll(async () => {
  await photos?.close();
  await h?.close();
});

const request = (recipes: string[]): ExportRequest => ({
  scope: { batchIds: [batchId] },
  recipes,
  destination: join(h.dir, 'exports', recipes.join('+')),
});

async function rowNamed(name: string) {
  const sheet = await callCore(h.core, 'products:sheet', { batchId });
  const row = sheet.rows.find((one) => one.name === name);
  expect(row, `${name} in ${sheet.rows.map((one) => one.name).join(', ')}`).toBeDefined();
  return row!;
}

describe('a product sheet', () => {
  it("keeps a catalog's SKU, handle, title, vendor and alt text, and a folder's product has no SKU", async () => {
    const hat = await rowNamed('Solidus Hat');
    expect(hat.identity).toEqual({
      sku: 'SOL-HAT-01',
      handle: 'solidus-hat',
      title: 'Solidus Hat',
      brand: 'Solidus',
      alt: 'A black bucket hat',
    });
    const mug = await rowNamed('MUG-77_Mug Set');
    expect(mug.identity).toEqual({ sku: '', handle: '', title: '', brand: '', alt: '' });
    // Guessed where names need them: a title from the name, a handle from the title; never a SKU.
    expect(mug.used).toEqual({
      sku: '',
      handle: 'mug-77-mug-set',
      title: 'MUG-77_Mug Set',
      brand: '',
      alt: '',
    });
    // Stored in the database file itself, one row per catalog product.
    const db = new Database(databaseFile(join(h.dir, 'data')), { readonly: true });
    try {
      const stored = db.prepare('SELECT sku, handle, brand FROM product_identity ORDER BY sku').all();
      expect(stored).toEqual([
        { sku: 'SOL-HAT-01', handle: 'solidus-hat', brand: 'Solidus' },
        { sku: 'SOL-TOTE-02', handle: 'canvas-tote', brand: 'Solidus' },
      ]);
    } finally {
      db.close();
    }
  });

  it('blocks Amazon main in the plan, naming the product without a SKU, and writes nothing', async () => {
    const plan = await callCore(h.core, 'export:plan', request(['amazon-main', 'shopify']));
    expect(plan.blocking).toEqual([
      'Amazon main names files with {sku}, and 1 product has no SKU: MUG-77_Mug Set. Give it one in the product sheet (or adbatch products <batch> --from FILE).',
    ]);
    // The products in batch order (the folder's first); Amazon main has no file for the mug.
    const paths = plan.files.map((file) => file.path);
    expect(paths).toEqual([
      'Amazon main/SOLHAT01.MAIN.jpg',
      'Amazon main/SOLTOTE02.MAIN.jpg',
      'Shopify/mug-77-mug-set-01.jpg',
      'Shopify/solidus-hat-01.jpg',
      'Shopify/canvas-tote-01.jpg',
    ]);
    expect(paths.some((path) => /(^|\/)_/.test(path))).toBe(false);
    const refusal = await refusalOf(h.core, 'export:start', request(['amazon-main']));
    expect(refusal).toEqual({ code: 'conflict', message: plan.blocking[0] });
    // No trace: the folder the refused export made is taken away again, mark and all.
    expect(existsSync(join(h.dir, 'exports', 'amazon-main'))).toBe(false);
  });

  it('reads a SKU and a title from folder names by a pattern, and refuses a pattern in words, one that runs for ever too', async () => {
    expect(await refusalOf(h.core, 'products:fromNames', { batchId, pattern: '{sku}_{colour}' })).toEqual({
      code: 'bad_request',
      message:
        'The pattern "{sku}_{colour}" has an unknown field {colour}: the fields are {sku} {handle} {title} {brand} {alt}.',
    });
    // A repeat inside a repeat inside a repeat: it would backtrack for ever on these names; stopped, in
    // words, and the core answers on.
    const endless = '^(?<sku>(((.|.)*)*)*)!$';
    expect(await refusalOf(h.core, 'products:fromNames', { batchId, pattern: endless })).toEqual({
      code: 'bad_request',
      message: `The pattern "${endless}" takes too long on these names (over 2 s): a repeat inside a repeat, such as (a+)+, can make a pattern run for ever. Write it without one, or use a template such as {sku}_{title}.`,
    });
    const read = await callCore(h.core, 'products:fromNames', { batchId, pattern: '{sku}_{title}' });
    // The catalog's products are named by their handles, which the pattern does not match: left as they are.
    expect(read.unmatched).toEqual(['Solidus Hat', 'Canvas Tote']);
    const mug = read.rows.find((row) => row.name === 'MUG-77_Mug Set')!;
    expect(mug.identity).toMatchObject({ sku: 'MUG-77', title: 'Mug Set' });
    expect(mug.used.handle).toBe('mug-set');
    expect((await rowNamed('Solidus Hat')).identity.sku).toBe('SOL-HAT-01');

    const plan = await callCore(h.core, 'export:plan', request(['amazon-main']));
    expect(plan.blocking).toEqual([]);
    expect(plan.files.map((file) => file.path.replace(/\.\w+$/, ''))).toEqual([
      'Amazon main/MUG77.MAIN',
      'Amazon main/SOLHAT01.MAIN',
      'Amazon main/SOLTOTE02.MAIN',
    ]);
  });

  it('sets a pasted column in one change, and round-trips as CSV', async () => {
    const sheet = await callCore(h.core, 'products:sheet', { batchId });
    const pasted = await callCore(h.core, 'products:update', {
      batchId,
      changes: sheet.rows.map((row, index) => ({
        productId: row.id,
        field: 'alt',
        value: `Alt ${index + 1}\n`,
      })),
    });
    expect(pasted.rows.map((row) => row.identity.alt)).toEqual(['Alt 1', 'Alt 2', 'Alt 3']);

    const { csv, fileName } = await callCore(h.core, 'products:exportCsv', { batchId });
    expect(fileName).toBe('Identity products.csv');
    const records = parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(Object.keys(records[0]!)).toEqual([
      'Product id',
      'Name',
      'SKU',
      'Handle',
      'Title',
      'Brand',
      'Alt text',
    ]);
    expect(records.map((record) => record.SKU)).toEqual(['MUG-77', 'SOL-HAT-01', 'SOL-TOTE-02']);

    // Edited in a spreadsheet: a brand for every row, the mug matched by its name alone.
    const edited = [
      'Name,Brand,Alt text',
      ...records.map((record) => `"${record.Name}",Atelier,"${record['Alt text']}, edited"`),
    ].join('\r\n');
    const imported = await callCore(h.core, 'products:importCsv', { batchId, csv: edited });
    expect(imported.changed).toBe(3);
    expect(imported.rows.map((row) => [row.identity.sku, row.identity.brand, row.identity.alt])).toEqual([
      ['MUG-77', 'Atelier', 'Alt 1, edited'],
      ['SOL-HAT-01', 'Atelier', 'Alt 2, edited'],
      ['SOL-TOTE-02', 'Atelier', 'Alt 3, edited'],
    ]);
    // Exported again, the same CSV reads back to the same sheet.
    const again = await callCore(h.core, 'products:exportCsv', { batchId });
    const same = await callCore(h.core, 'products:importCsv', { batchId, csv: again.csv });
    expect(same.rows).toEqual(imported.rows);

    // A cell a spreadsheet would run is written inert (the one CSV writer) and reads back as it was typed.
    const formula = await callCore(h.core, 'products:update', {
      batchId,
      changes: [{ productId: imported.rows[0]!.id, field: 'alt', value: '=HYPERLINK("https://x.test")' }],
    });
    const inert = await callCore(h.core, 'products:exportCsv', { batchId, bom: true });
    expect(inert.csv.startsWith('\uFEFFProduct id,')).toBe(true);
    expect(inert.csv).toContain(`"'=HYPERLINK(""https://x.test"")"`);
    const back = await callCore(h.core, 'products:importCsv', { batchId, csv: inert.csv });
    expect(back.rows).toEqual(formula.rows);
    expect(back.rows[0]!.identity.alt).toBe('=HYPERLINK("https://x.test")');

    const unknown = `${again.csv}p_nothing,Scarf,SC-1,,,,\r\n`;
    expect(await refusalOf(h.core, 'products:importCsv', { batchId, csv: unknown })).toEqual({
      code: 'bad_request',
      message:
        'Nothing was changed: a row names no product of Identity (row 5 (id p_nothing, name "Scarf")). Match rows by the "Product id" column or the product\'s current name.',
    });
    expect((await callCore(h.core, 'products:sheet', { batchId })).rows).toEqual(back.rows);
  });
});
