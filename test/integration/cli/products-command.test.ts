import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch, runOnSandbox } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { workbookBytes } from '../../support/workbook.ts';

// `adbatch products <batch>` as a user runs it, on a batch of two plain folders (no SKU): the sheet as CSV,
// edited and read back with --from (rows matched by id or name), a row that names no product and a
// workbook given for its CSV refused in words with nothing changed, and a pattern that reads SKUs from the
// folders' names.

let dir: string;
let where: { dataDir: string; library: string };
let batchId: string;
/** The batch's name as `adbatch run` gave it (the sheet's first line says it). */
let batchName: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-products-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  await makeProductFolders(join(dir, 'photos'), 2);
  const run = await runOnSandbox([join(dir, 'photos')], where);
  expect(run.code, run.stderr).toBe(0);
  batchId = /Batch (b_[0-9a-f]+) started/.exec(run.stdout)![1]!;
  const sheet = await products();
  expect(sheet.stdout).toMatch(/^.+: 2 products$/m);
  batchName = /^(.+): 2 products$/m.exec(sheet.stdout)![1]!;
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const products = (...args: string[]) => adbatch(['products', batchId, ...args, '--data-dir', where.dataDir]);

/** `adbatch export` of the batch's Amazon main images into `folder`, these pre-flight warnings accepted. */
const exportMains = (folder: string, ...accepted: string[]) =>
  adbatch([
    'export',
    batchId,
    '--recipe',
    'amazon-main',
    '--not-rejected',
    ...accepted.flatMap((kind) => ['--accept-warning', kind]),
    '--to',
    join(dir, folder),
    '--data-dir',
    where.dataDir,
  ]);

describe('adbatch products', () => {
  it('prints the sheet as CSV, reads an edited one back, and refuses a row that names no product or a workbook', async () => {
    const printed = await products('--csv');
    expect(printed.code, printed.stderr).toBe(0);
    const rows = parse(printed.stdout, { columns: true, bom: true }) as Array<Record<string, string>>;
    // Excel's byte-order mark by default (the one CSV writer's preference); --no-bom for scripts.
    expect(printed.stdout.startsWith('\uFEFFProduct id,Name,SKU,Handle,Title,Brand,Alt text\r\n')).toBe(true);
    expect((await products('--csv', '--no-bom')).stdout.startsWith('Product id,')).toBe(true);
    expect(rows.map((row) => [row.Name, row.SKU, row.Handle])).toEqual([
      ['product-01', '', ''],
      ['product-02', '', ''],
    ]);

    const edited = join(dir, 'edited.csv');
    await writeFile(
      edited,
      `Product id,Name,SKU,Brand\n${rows[0]!['Product id']},,SKU-1,Solidus\n,product-02,SKU-2,Solidus\n`,
    );
    const read = await products('--from', edited);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe(`2 of 2 products of ${batchName} read from ${edited}.\n`);
    const out = join(dir, 'sheet.csv');
    expect((await products('--csv', '--out', out)).code).toBe(0);
    const after = parse(await readFile(out, 'utf8'), { columns: true, bom: true }) as Array<
      Record<string, string>
    >;
    expect(after.map((row) => [row.SKU, row.Brand])).toEqual([
      ['SKU-1', 'Solidus'],
      ['SKU-2', 'Solidus'],
    ]);

    const wrong = join(dir, 'wrong.csv');
    await writeFile(wrong, 'Name,SKU\nproduct-01,SKU-9\nscarf,SC-1\n');
    const refused = await products('--from', wrong);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `adbatch: Nothing was changed: a row names no product of ${batchName} (row 3 (name "scarf")). Match rows by the "Product id" column or the product's current name.\n`,
    );
    const unchanged = await products();
    expect(unchanged.stdout).toContain('SKU SKU-1, Handle product-01, Title product-01, Brand Solidus');

    // The workbook itself, where its CSV is asked for: said what it is, never read as text.
    const workbook = join(dir, 'Products.xlsx');
    await writeFile(workbook, await workbookBytes());
    const notCsv = await products('--from', workbook);
    expect(notCsv.code).toBe(1);
    expect(notCsv.stderr).toBe(
      `adbatch: ${workbook} is a spreadsheet’s own file (an Excel workbook, a Numbers or an OpenDocument sheet), which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file.\n`,
    );
    expect((await products()).stdout).toBe(unchanged.stdout);

    // A file that is not there, or a folder: said in words, not by the system's code.
    const gone = await products('--from', join(dir, 'gone.csv'));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(
      `adbatch: ${join(dir, 'gone.csv')} does not exist: it was moved, renamed or deleted, or its drive is unplugged. Check the path, or choose where it is now.\n`,
    );
    const folder = await products('--from', dir);
    expect(folder.stderr).toBe(`adbatch: ${dir} is a folder, not a file: name a file instead.\n`);
    // A file far bigger than any sheet (sparse: its size without its bytes), refused before it is read.
    const huge = join(dir, 'huge.csv');
    await writeFile(huge, 'Name,SKU\n');
    await truncate(huge, 60_000_000);
    const tooBig = await products('--from', huge);
    expect(tooBig.stderr).toBe(
      `adbatch: ${huge} is 57 MB: more than a product sheet holds (at most 48 MB, a row a product). Choose the sheet of a batch, saved as CSV.\n`,
    );
    expect((await products()).stdout).toBe(unchanged.stdout);
  }, 60_000);

  it('reads fields from the folder names by a pattern, naming the products it does not match', async () => {
    const read = await products('--pattern', 'product-{sku}');
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe('2 of 2 products read from their names.\n');
    const sheet = await products();
    expect(sheet.stdout).toContain('SKU 01, Handle product-01');
    expect(sheet.stdout).toContain('SKU 02, Handle product-02');
    const refused = await products('--pattern', '{sku}_{size}');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^adbatch: The pattern "\{sku\}_\{size\}" has an unknown field \{size\}/);
  }, 60_000);

  it('says which SKUs Amazon’s file names and which handles Shopify cannot take as they are read; an Amazon export refuses them, then says what it held back', async () => {
    const sheet = join(dir, 'amazon.csv');
    await writeFile(sheet, 'Name,SKU,Handle\nproduct-01,CAP_01,\nproduct-02,HAT-02,Wool Hat\n');
    const read = await products('--from', sheet);
    expect(read.code, read.stderr).toBe(0);
    // A handle Shopify would not take is said alike (its import file leaves the row out).
    const note =
      "note: 1 of 2 products have a SKU Amazon's file names cannot hold (letters and digits only; dashes and spaces are left out): product-01 (“CAP_01”).\n" +
      'note: 1 of 2 products have a handle Shopify does not take (lower-case letters and digits, dashes between words): product-02 (“Wool Hat”).\n';
    expect(read.stderr).toBe(note);
    expect((await products()).stderr).toBe(note);
    const exported = await exportMains('amazon');
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain('which Amazon would not take: product-01 (“CAP_01”)');
    // HAT-02 is not refused: Amazon's names hold it as HAT02.
    expect(exported.stderr).not.toContain('HAT-02');

    // Mended, the names hold; the sandbox marks each shot in a corner, so no main image is on pure white,
    // and its 1K results are under Amazon's recommended size: nothing would be written, and the refusal names
    // every warning to accept (it once named the size's alone, and accepting it wrote nothing either, said
    // "Nothing exported" after making the folder).
    await writeFile(sheet, 'Name,SKU,Handle\nproduct-01,CAP-01,\nproduct-02,HAT-02,wool-hat\n');
    expect((await products('--from', sheet)).stderr).toBe('');
    const held = await exportMains('amazon');
    expect(held.code, held.stderr).toBe(1);
    expect(held.stderr).toMatch(
      /Nothing would be written: the pre-flight holds back all 2 files: 2 under the channel recommended size \(.*\); 2 background not pure white \(e\.g\. The background is not pure white .*\)\. To write what its warnings hold back anyway, accept them: below_recommended, not_white\./,
    );
    const sizeAccepted = await exportMains('amazon', 'below_recommended');
    expect(sizeAccepted.code, sizeAccepted.stderr).toBe(1);
    expect(sizeAccepted.stderr).toMatch(
      /Nothing would be written: the pre-flight holds back all 2 files: 2 background not pure white \(.*\)\. To write what its warnings hold back anyway, accept them: not_white\./,
    );
    expect(existsSync(join(dir, 'amazon'))).toBe(false);
    // Both accepted, as the words say: both written.
    const both = await exportMains('amazon', 'below_recommended', 'not_white');
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(/^done: 2 written, 0 already there, 0 failed, into /m);
  }, 60_000);

  it('says a SKU whose UPC zero a spreadsheet dropped as it is read, and an Amazon export says it again', async () => {
    const sheet = join(dir, 'upc.csv');
    // 036000291452 as a spreadsheet saves a number: its leading zero gone; 012345678905 kept whole.
    await writeFile(sheet, 'Name,SKU\nproduct-01,36000291452\nproduct-02,012345678905\n');
    const read = await products('--from', sheet);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toBe(
      "note: 1 of 2 products have a SKU of 11 digits, one short of a UPC, that reads as one with a 0 before: product-01 (“36000291452”, as a UPC 036000291452). A spreadsheet drops a UPC's leading zero, and Amazon finds a listing by its whole code: if it is a UPC, type its 12 digits.\n",
    );
    const exported = await exportMains('amazon-upc', 'below_recommended', 'not_white');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(
      'note: 1 SKU has 11 digits, one short of a UPC, and reads as one with a 0 before: product-01 (36000291452, as a UPC 036000291452).',
    );
  }, 60_000);

  it('reads back a sheet Excel saved again in German: semicolons and Windows-1252, said as read', async () => {
    const sheet = join(dir, 'excel-de.csv');
    // "Tasse Café" and "Mütze – Rot" in Windows-1252: é 0xE9, ü 0xFC, the en dash 0x96; not UTF-8.
    await writeFile(
      sheet,
      Buffer.concat([
        Buffer.from('Name;SKU;Title\r\nproduct-01;MUG1;Tasse Caf', 'latin1'),
        Buffer.from([0xe9]),
        Buffer.from('\r\nproduct-02;CAP2;M', 'latin1'),
        Buffer.from([0xfc]),
        Buffer.from('tze ', 'latin1'),
        Buffer.from([0x96]),
        Buffer.from(' Rot\r\n', 'latin1'),
      ]),
    );
    const read = await products('--from', sheet);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe(`2 of 2 products of ${batchName} read from ${sheet}.\n`);
    expect(read.stderr).toBe(
      `note: ${sheet}: not UTF-8: read as Windows-1252 ("Café", "Mütze", "–"); if a name reads wrong, save the file from your spreadsheet as "CSV UTF-8" and use that file\n`,
    );
    const after = (await products()).stdout;
    expect(after).toContain('SKU MUG1, Handle tasse-cafe, Title Tasse Café');
    expect(after).toContain('SKU CAP2, Handle wool-hat, Title Mütze – Rot');
  }, 60_000);
});
