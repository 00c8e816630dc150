import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { missingFieldMessage } from '../../../src-main/core/export/missing-fields.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { listFiles } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { makeSources, type Sources } from '../../support/export-sources.ts';

// Amazon's bulk image upload matches a file to its listing by the name alone, `SKU.MAIN.jpg` and
// `SKU.PT01.jpg` to `PT08`, and drops a name with a dash, a space, an underscore or any other character
// (Amazon's help, docs/export.md). An export that writes such a name is "Exported" and still lands
// nowhere. These tests plan and write the Amazon recipes on real images decoded by sharp and read the
// names on disk.

let root: string;
let sources: Sources;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-amazon-names-'));
  sources = await makeSources(join(root, 'sources'));
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const AMAZON = [builtInRecipe('amazon-main'), builtInRecipe('amazon-additional')];
/** A name Amazon's bulk upload takes: letters and digits, a variant code it knows, the extension. */
const AMAZON_NAME = /^Amazon (main|additional)\/[A-Za-z0-9]+\.(MAIN|PT0[1-8])\.jpg$/;

/** `count` picked shots of one product, on white and filling the frame (Amazon's main image passes). */
function picks(count: number, product: Partial<ExportItem> & { productKey: string }): ExportItem[] {
  return Array.from({ length: count }, (_, index) =>
    exportItem({
      key: `${product.productKey}-${index + 1}`,
      file: sources.fillsWhite,
      shot: index + 1,
      ...product,
    }),
  );
}

async function exported(items: ExportItem[], folder: string) {
  const plan = await planExport({ items, recipes: AMAZON, date: '2026-11-28' });
  const destination = join(root, folder);
  const report = await runExport({ plan, destination, acceptWarnings: ACCEPT_ALL });
  return { plan, report, onDisk: await listFiles(destination) };
}

describe('Amazon’s file names', () => {
  it('hold the SKU without its dashes and spaces, as Amazon asks, and say so', async () => {
    const items = [
      ...picks(2, { productKey: 'hat', product: 'Hat', sku: 'HAT-001' }),
      ...picks(2, { productKey: 'cap', product: 'Cap', sku: 'CAP 77' }),
    ];
    const { plan, report, onDisk } = await exported(items, 'dashes');
    expect(onDisk.sort()).toEqual([
      'Amazon additional/CAP77.PT01.jpg',
      'Amazon additional/HAT001.PT01.jpg',
      'Amazon main/CAP77.MAIN.jpg',
      'Amazon main/HAT001.MAIN.jpg',
    ]);
    expect(report.files.every((file) => file.status === 'written')).toBe(true);
    expect(plan.notices.map((notice) => notice.message)).toContain(
      "Amazon's file names hold SKUs without dashes or spaces, as Amazon asks: HAT-001 as HAT001, CAP 77 as CAP77.",
    );
  }, 60_000);

  it('say which SKUs look like a UPC whose leading zero a spreadsheet dropped, and only those', async () => {
    const items = [
      // 036000291452 and 012345678905 are whole UPCs; 12345678901 is not one with a 0 before it.
      ...picks(1, { productKey: 'tea', product: 'Tea', sku: '36000291452' }),
      ...picks(1, { productKey: 'mug', product: 'Mug', sku: '12345678901' }),
      ...picks(1, { productKey: 'cup', product: 'Cup', sku: '036000291452' }),
      ...picks(1, { productKey: 'jar', product: 'Jar', sku: '1234-5678-905' }),
    ];
    const plan = await planExport({ items, recipes: AMAZON, date: '2026-11-28' });
    // Said, never rewritten: one 11-digit SKU in ten reads as a UPC by chance.
    expect(plan.files.map((file) => file.relativePath)).toContain('Amazon main/36000291452.MAIN.jpg');
    expect(plan.notices.map((notice) => notice.message)).toContain(
      "2 SKUs have 11 digits, one short of a UPC, and read as one with a 0 before: Tea (36000291452, as a UPC 036000291452), Jar (12345678905, as a UPC 012345678905). A spreadsheet drops a UPC's leading zero, and Amazon finds a listing by its whole code: if these are UPCs, give them their 12 digits in the product sheet (or adbatch products <batch> --from FILE).",
    );
    expect(plan.notices.map((notice) => notice.message).join(' ')).not.toMatch(/12345678901|Cup/);
  }, 60_000);

  it('refuse the export, naming the product, when a SKU holds characters Amazon would not take', async () => {
    const items = [
      ...picks(1, { productKey: 'hat', product: 'Hat', sku: 'HAT_001' }),
      ...picks(1, { productKey: 'cap', product: 'Cap', sku: 'B000CAP001' }),
      ...picks(1, { productKey: 'mug', product: 'Mug', sku: 'MUG/7' }),
    ];
    const plan = await planExport({ items, recipes: AMAZON, date: '2026-11-28' });
    // Not a file Amazon drops: the products are out of the plan, and the export does not start.
    expect(plan.files.map((file) => file.relativePath)).toEqual(['Amazon main/B000CAP001.MAIN.jpg']);
    expect(plan.missing.map(missingFieldMessage)).toEqual([
      "Amazon main names files as Amazon's bulk image upload reads them, {sku} in letters and digits only (dashes and spaces are left out), and 2 products' SKU have other characters, which Amazon would not take: Hat (“HAT_001”), Mug (“MUG/7”). Give them the ASIN, UPC or EAN (or a SKU of letters and digits) in the product sheet (or adbatch products <batch> --from FILE).",
    ]);
  }, 60_000);

  it('number one SKU’s picks across batches as one listing: one MAIN, never a second named “(2)”', async () => {
    const items = [
      ...picks(2, { productKey: 'spring/hat', product: 'Hat', sku: 'B000HAT001', batch: 'Spring' }),
      ...picks(3, { productKey: 'summer/hat', product: 'Hat', sku: 'B000HAT001', batch: 'Summer' }),
    ];
    const { plan, report, onDisk } = await exported(items, 'two-batches');
    expect(onDisk.sort()).toEqual([
      'Amazon additional/B000HAT001.PT01.jpg',
      'Amazon additional/B000HAT001.PT02.jpg',
      'Amazon additional/B000HAT001.PT03.jpg',
      'Amazon additional/B000HAT001.PT04.jpg',
      'Amazon main/B000HAT001.MAIN.jpg',
    ]);
    for (const path of onDisk) expect(path).toMatch(AMAZON_NAME);
    // The main image is the first batch's first pick; the second batch's picks follow its first's.
    const main = report.files.find((file) => file.relativePath === 'Amazon main/B000HAT001.MAIN.jpg');
    expect(main?.planned.item.key).toBe('spring/hat-1');
    const pt03 = report.files.find((file) => file.relativePath === 'Amazon additional/B000HAT001.PT02.jpg');
    expect(pt03?.planned.item.key).toBe('summer/hat-1');
    expect(plan.notices.map((notice) => notice.message)).toContain(
      "B000HAT001 is the SKU of 2 products (Hat (batch “Spring”), Hat (batch “Summer”)): Amazon's files number them as one listing's images, its MAIN from the first.",
    );
  }, 60_000);

  it('take the first pick on white as MAIN, the others in order as PT01 on, exported together or apart', async () => {
    // The first pick a scene on a coloured ground (a shot as the service makes it), the second and third on
    // white: the MAIN was once the scene, held back as not white, and the listing went without one.
    const items = [
      exportItem({
        key: 'hat-scene',
        file: sources.aiShot,
        shot: 1,
        productKey: 'hat',
        product: 'Hat',
        sku: 'HAT1',
      }),
      exportItem({
        key: 'hat-white',
        file: sources.fillsWhite,
        shot: 2,
        productKey: 'hat',
        product: 'Hat',
        sku: 'HAT1',
      }),
      exportItem({
        key: 'hat-small',
        file: sources.smallOnWhite,
        shot: 3,
        productKey: 'hat',
        product: 'Hat',
        sku: 'HAT1',
      }),
      // No pick on white: its first pick stays the MAIN, and the white check says why it is held back.
      exportItem({ key: 'cap-scene', file: sources.aiShot, shot: 1, productKey: 'cap', sku: 'CAP1' }),
      exportItem({ key: 'cap-photo', file: sources.gpsPhoto, shot: 2, productKey: 'cap', sku: 'CAP1' }),
    ];
    const named = (plan: Awaited<ReturnType<typeof planExport>>) =>
      Object.fromEntries(plan.files.map((file) => [file.relativePath, file.item.key]));
    const together = await planExport({ items, recipes: AMAZON, date: '2026-11-28' });
    expect(named(together)).toEqual({
      'Amazon main/HAT1.MAIN.jpg': 'hat-white',
      'Amazon main/CAP1.MAIN.jpg': 'cap-scene',
      'Amazon additional/HAT1.PT01.jpg': 'hat-scene',
      'Amazon additional/HAT1.PT02.jpg': 'hat-small',
      'Amazon additional/CAP1.PT01.jpg': 'cap-photo',
    });
    expect(together.notices.map((notice) => notice.message)).toContain(
      "HAT1's main image is shot 2 of Hat, its first pick on white (Amazon takes a main image only on white); the picks before it go with the others.",
    );
    const additional = await planExport({ items, recipes: [AMAZON[1]], date: '2026-11-28' });
    expect(named(additional)).toEqual({
      'Amazon additional/HAT1.PT01.jpg': 'hat-scene',
      'Amazon additional/HAT1.PT02.jpg': 'hat-small',
      'Amazon additional/CAP1.PT01.jpg': 'cap-photo',
    });
    // Written: the hat's MAIN passes Amazon's white check; the cap's is held back, saying why.
    const { report } = await exported(items, 'first-on-white');
    const main = (path: string) => report.files.find((file) => file.relativePath === path)!;
    expect(main('Amazon main/HAT1.MAIN.jpg').warnings.join('\n')).not.toMatch(/not pure white/);
    expect(main('Amazon main/CAP1.MAIN.jpg').warnings.join('\n')).toMatch(/not pure white/);
  }, 60_000);

  it('stop at PT08: a ninth other pick is held back with the reason, not written as PT09', async () => {
    const { report, onDisk } = await exported(
      picks(10, { productKey: 'hat', product: 'Hat', sku: 'B000HAT001' }),
      'ten-picks',
    );
    expect(onDisk.length).toBe(9);
    for (const path of onDisk) expect(path).toMatch(AMAZON_NAME);
    const held = report.files.filter((file) => file.status === 'failed');
    expect(held.map((file) => file.planned.relativePath)).toEqual(['Amazon additional/B000HAT001.PT09.jpg']);
    expect(held[0]!.error).toBe(
      'Not written (pre-flight): This is file 9 of B000HAT001 for Amazon additional, which takes at most 8 a product: pick fewer, or export the rest with another recipe.',
    );
    // What was written is what Amazon reads: JPEG, at least 1000 px on the long side.
    const meta = await sharp(join(root, 'ten-picks', onDisk[0]!)).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeGreaterThanOrEqual(1000);
  }, 60_000);

  it('are written under their name or not at all: a stranger’s file there is kept, and no “(2)” is made', async () => {
    const destination = join(root, 'taken');
    await mkdir(join(destination, 'Amazon main'), { recursive: true });
    const stranger = join(destination, 'Amazon main', 'B000HAT001.MAIN.jpg');
    await writeFile(stranger, 'a main image someone else put here');
    const plan = await planExport({
      items: picks(2, { productKey: 'hat', product: 'Hat', sku: 'B000HAT001' }),
      recipes: AMAZON,
      date: '2026-11-28',
    });
    const report = await runExport({ plan, destination, acceptWarnings: ACCEPT_ALL });
    expect((await listFiles(destination)).sort()).toEqual([
      'Amazon additional/B000HAT001.PT01.jpg',
      'Amazon main/B000HAT001.MAIN.jpg',
    ]);
    expect(await readFile(stranger, 'utf8')).toBe('a main image someone else put here');
    const main = report.files.find((file) => file.planned.recipe.id === 'amazon-main')!;
    expect(main.status).toBe('failed');
    expect(main.error).toBe(
      'Amazon main/B000HAT001.MAIN.jpg is taken in the export folder by another file (kept as it is), and the channel reads this file by that name alone: not written. Move that file away, or export into an empty folder.',
    );
    expect(report.failed).toBe(1);
  }, 60_000);

  it('follow Amazon’s rules in a designer’s own recipe named as Amazon names files', async () => {
    // Every pick named MAIN, and the others numbered PT without a limit: as a designer might write them.
    const mine = [
      {
        id: 'my-main',
        name: 'My main',
        format: { type: 'jpeg' },
        size: { kind: 'original' },
        fileTemplate: '{sku}.MAIN.{ext}',
      },
      {
        id: 'my-parts',
        name: 'My parts',
        format: { type: 'jpeg' },
        size: { kind: 'original' },
        fileTemplate: '{sku}.PT{n:02}.{ext}',
      },
    ];
    const plan = await planExport({
      items: picks(9, { productKey: 'hat', product: 'Hat', sku: 'HAT-001' }),
      recipes: mine,
      date: '2026-11-28',
    });
    const destination = join(root, 'mine');
    const report = await runExport({ plan, destination, acceptWarnings: ACCEPT_ALL });
    const onDisk = await listFiles(destination);
    expect(onDisk.sort()).toEqual([
      'My main/HAT001.MAIN.jpg',
      ...Array.from({ length: 8 }, (_, index) => `My parts/HAT001.PT0${index + 1}.jpg`),
    ]);
    const held = report.files.filter((file) => file.status === 'failed');
    // Eight more MAINs, held in the plan, and a ninth part.
    expect(held.map((file) => file.planned.relativePath)).toContain('My parts/HAT001.PT09.jpg');
    expect(held.filter((file) => file.planned.recipe.id === 'my-main').length).toBe(8);
    expect(held.find((file) => file.planned.recipe.id === 'my-main')!.error).toBe(
      "Not written (pre-flight): Another file of this export is named My main/HAT001.MAIN.jpg, and My main's channel reads a file by its name alone: number them ({n}) or take one shot a product.",
    );
  }, 60_000);
});
