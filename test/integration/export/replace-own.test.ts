import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { type PlacedBefore, placedBeforeOf } from '../../../src-main/core/export/placed-before.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { type ExportReport, runExport } from '../../../src-main/core/export/run.ts';
import { planZips, writeZip } from '../../../src-main/core/export/zips.ts';
import { listFiles, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { PRODUCTS } from '../../support/export-sources.ts';

// A re-export into a folder it wrote before (issue 29, point 7): the files it placed there, recorded as
// export_files records them, are replaced when their sources changed, with the manifests and the zips;
// no ` (2)` piles up. A file of ours that someone changed since is a stranger's: kept, the new one beside
// it, and the export says so. Real photos from ../shared/fixtures/products (Solidus sample data; its
// license is in LICENSE-solidus.md there), decoded by sharp.

let root: string;
let capFile: string;
let hatFile: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-replace-'));
  capFile = join(root, 'cap.png');
  hatFile = join(root, 'hat.png');
  await copyFile(join(PRODUCTS, 'cap-black/solidus_cap_black_1.png'), capFile);
  await copyFile(join(PRODUCTS, 'hat/solidus_hat.png'), hatFile);
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const items = (): ExportItem[] => [
  exportItem({ key: 'cap-1', file: capFile }),
  exportItem({
    key: 'hat-1',
    file: hatFile,
    productKey: 'hat',
    product: 'Hat',
    handle: 'hat',
    sku: 'B000HAT001',
  }),
];

/** One export into `out` as the handlers run it: what earlier runs placed, recorded and passed back. */
async function exportOnce(out: string, records: Map<string, PlacedBefore>): Promise<ExportReport> {
  const plan = await planExport({ items: items(), recipes: [builtInRecipe('shopify')], date: '2026-11-27' });
  const report = await runExport({
    plan,
    destination: out,
    acceptWarnings: ACCEPT_ALL,
    manifest: { csv: true, json: false },
    placedBefore: [...records.values()],
    onFile: (outcome) => {
      const placed = placedBeforeOf(outcome);
      if (placed) records.set(placed.plannedPath, placed);
    },
  });
  for (const placed of report.manifestsPlaced) records.set(placed.plannedPath, placed);
  const [zip] = planZips(report.files, 'per-recipe', [
    ...report.files.map((file) => file.relativePath),
    ...report.manifests,
  ]);
  const zipped = await writeZip(out, zip!, { date: '2026-11-27', placedBefore: records.get(zip!.path) });
  records.set(zip!.path, { ...zipped, plannedPath: zip!.path, width: 0, height: 0, warnings: [] });
  return report;
}

/** The cap photo changed: another crop of it, as a re-made result would be. */
async function changeCap(): Promise<void> {
  const changed = await sharp(join(PRODUCTS, 'cap-black/solidus_cap_black_2.png')).png().toBuffer();
  await writeFile(capFile, changed);
}

describe('a re-export into its own folder', () => {
  it('replaces the files it placed whose sources changed, and its manifest and zip, with no (2) beside them', async () => {
    const out = join(root, 'own');
    const records = new Map<string, PlacedBefore>();
    const first = await exportOnce(out, records);
    const names = await listFiles(out);
    expect(names).toEqual(['Shopify.zip', 'Shopify/cap-black-01.jpg', 'Shopify/hat-01.jpg', 'manifest.csv']);
    const capBefore = await sha256Of(join(out, 'Shopify/cap-black-01.jpg'));
    const hatBefore = await sha256Of(join(out, 'Shopify/hat-01.jpg'));
    const zipBefore = await sha256Of(join(out, 'Shopify.zip'));
    expect(first.written).toBe(2);

    await changeCap();
    const second = await exportOnce(out, records);
    expect(await listFiles(out)).toEqual(names);
    expect(second.files.map((file) => [file.relativePath, file.status])).toEqual([
      ['Shopify/cap-black-01.jpg', 'written'],
      ['Shopify/hat-01.jpg', 'identical'],
    ]);
    expect(await sha256Of(join(out, 'Shopify/cap-black-01.jpg'))).not.toBe(capBefore);
    expect(await sha256Of(join(out, 'Shopify/cap-black-01.jpg'))).toBe(second.files[0]!.sha256);
    expect(await sha256Of(join(out, 'Shopify/hat-01.jpg'))).toBe(hatBefore);
    expect(await sha256Of(join(out, 'Shopify.zip'))).not.toBe(zipBefore);
    expect(await readFile(join(out, 'manifest.csv'), 'utf8')).toContain(second.files[0]!.sha256);
  }, 60_000);

  it('keeps a file of its own that was changed since, puts the new one beside it, and says so', async () => {
    const out = join(root, 'changed-since');
    const records = new Map<string, PlacedBefore>();
    await exportOnce(out, records);
    // The designer retouched the exported cap in place.
    await writeFile(join(out, 'Shopify/cap-black-01.jpg'), 'retouched by hand');
    await changeCap();
    await writeFile(capFile, await sharp(capFile).flop().png().toBuffer());
    const report = await exportOnce(out, records);
    expect(await readFile(join(out, 'Shopify/cap-black-01.jpg'), 'utf8')).toBe('retouched by hand');
    expect(report.files[0]).toMatchObject({
      relativePath: 'Shopify/cap-black-01 (2).jpg',
      status: 'written',
    });
    expect(report.files[0]!.warnings).toContain(
      "Shopify/cap-black-01.jpg was changed since Adbatch wrote it: kept as it is; this export's file is Shopify/cap-black-01 (2).jpg.",
    );
    // The one beside it is ours now: the next change replaces it, no (3).
    await writeFile(capFile, await sharp(capFile).flip().png().toBuffer());
    const again = await exportOnce(out, records);
    expect(again.files[0]).toMatchObject({ relativePath: 'Shopify/cap-black-01 (2).jpg', status: 'written' });
    expect((await listFiles(out)).filter((path) => path.startsWith('Shopify/cap'))).toEqual([
      'Shopify/cap-black-01 (2).jpg',
      'Shopify/cap-black-01.jpg',
    ]);
  }, 60_000);
});
