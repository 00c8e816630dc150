import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { runExportInWorker } from '../../../src-main/core/export/run-in-worker.ts';
import { planZips, writeZip } from '../../../src-main/core/export/zips.ts';
import { fileStamps, listFiles, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';
import { canMount } from '../../support/small-disk.ts';

// Zips of a finished export (yazl, streamed into a .part, linked into place) and the worker as the built
// app runs it: out/main/export-worker.js loaded by plain Node, without tsx.

const BUILT_WORKER = resolve(__dirname, '../../../out/main/export-worker.js');
let root: string;
let items: ExportItem[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-zips-'));
  const sources = await makeSources(join(root, 'sources'));
  const hat = { productKey: 'hat', product: 'Hat', sku: 'B000HAT001', handle: 'hat' };
  items = [
    exportItem({ key: 'cap-1', file: sources.aiShot, shot: 1 }),
    exportItem({ key: 'cap-2', file: sources.fillsWhite, shot: 2 }),
    exportItem({ key: 'hat-1', file: sources.cutout, shot: 1, ...hat }),
    exportItem({ key: 'hat-video', kind: 'video', file: sources.video, shot: 1, ...hat }),
  ];
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function unzipTest(zip: string): string {
  return execFileSync('unzip', ['-t', zip], { encoding: 'utf8' });
}

/** The first product's (Cap's) two results exported for the web into `destination`, and their zip planned. */
async function capZip(destination: string) {
  const plan = await planExport({
    items: items.slice(0, 2),
    recipes: [builtInRecipe('web')],
    date: '2026-11-23',
  });
  const report = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination });
  const [zip] = planZips(report.files, 'per-product', []);
  if (!zip) throw new Error('the export planned no zip for Cap');
  return zip;
}

describe('zips of an export', () => {
  it('per product and per recipe pass unzip -t, hold the files byte for byte, and are not written twice', async () => {
    const out = join(root, 'zips');
    const plan = await planExport({
      items,
      recipes: [builtInRecipe('web'), builtInRecipe('story-reels')],
      date: '2026-11-23',
    });
    const report = await runExport({
      acceptWarnings: ACCEPT_ALL,
      plan,
      destination: out,
      manifest: { csv: true, json: false },
    });
    const taken = report.files.map((file) => file.relativePath);
    const perProduct = planZips(report.files, 'per-product', taken);
    expect(perProduct.map((zip) => zip.path)).toEqual(['Cap.zip', 'Hat.zip']);
    const perRecipe = planZips(report.files, 'per-recipe', taken);
    expect(perRecipe.map((zip) => [zip.path, zip.entries.length])).toEqual([
      ['Web.zip', 3],
      ['Story and Reels.zip', 4],
    ]);
    for (const zip of [...perProduct, ...perRecipe]) {
      const placed = await writeZip(out, zip, { date: '2026-11-23' });
      expect(placed).toMatchObject({ relativePath: zip.path, status: 'written' });
      expect(unzipTest(join(out, zip.path))).toMatch(/No errors detected/);
      const listed = execFileSync('unzip', ['-Z1', join(out, zip.path)], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(listed).toEqual(zip.entries.map((entry) => entry.path));
      for (const entry of zip.entries) {
        const inside = execFileSync('unzip', ['-p', join(out, zip.path), entry.path], {
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(inside.equals(await readFile(join(out, entry.path))), entry.path).toBe(true);
      }
    }
    expect((await listFiles(out)).filter((path) => path.includes('.part'))).toEqual([]);
    const stamps = await fileStamps(out);
    for (const zip of perProduct) {
      expect(await writeZip(out, zip, { date: '2026-11-23' })).toMatchObject({ status: 'identical' });
    }
    expect(await fileStamps(out)).toEqual(stamps);
  }, 120_000);

  it('goes beside a stranger’s file of its name, and writes ZIP64 records that unzip reads', async () => {
    const out = join(root, 'zip64');
    const zip = await capZip(out);
    await writeFile(join(out, 'Cap.zip'), 'not ours');
    const placed = await writeZip(out, zip, { date: '2026-11-23', forceZip64: true });
    expect(placed).toMatchObject({ relativePath: 'Cap (2).zip', status: 'written' });
    expect(await readFile(join(out, 'Cap.zip'), 'utf8')).toBe('not ours');
    const bytes = await readFile(join(out, 'Cap (2).zip'));
    // The ZIP64 end of central directory record's signature, 0x06064b50.
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(unzipTest(join(out, 'Cap (2).zip'))).toMatch(/No errors detected/);
  }, 60_000);

  it.runIf(canMount)(
    'finds a zip it placed before unchanged without zipping again, on a disk now read-only',
    async () => {
      const mount = join(root, 'zip-read-only');
      await mkdir(mount, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount]);
      try {
        const zip = await capZip(mount);
        const first = await writeZip(mount, zip, { date: '2026-11-23' });
        expect(first).toMatchObject({ relativePath: 'Cap.zip', status: 'written' });
        // A full or write-protected disk: a zip written again would need room for its .part.
        execFileSync('mount', ['-o', 'remount,ro', mount]);
        const placedBefore = { ...first, plannedPath: zip.path, width: 0, height: 0, warnings: [] };
        expect(await writeZip(mount, zip, { date: '2026-11-23', placedBefore })).toEqual({
          ...first,
          status: 'identical',
        });
      } finally {
        execFileSync('umount', ['-l', mount]);
      }
    },
    60_000,
  );

  it('zips again in place of its own zip when an entry changed, and beside a zip changed since', async () => {
    const out = join(root, 'zip-changed');
    const zip = await capZip(out);
    const first = await writeZip(out, zip, { date: '2026-11-23' });
    const changed = zip.entries[0]!;
    const bytes = Buffer.from('made again');
    await writeFile(join(out, changed.path), bytes);
    const again = {
      ...zip,
      entries: [
        { ...changed, bytes: bytes.length, sha256: await sha256Of(join(out, changed.path)) },
        ...zip.entries.slice(1),
      ],
    };
    const placedBefore = { ...first, plannedPath: zip.path, width: 0, height: 0, warnings: [] };
    // Its own zip, as it left it: replaced, no `Cap (2).zip` (issue 29, point 7).
    const replaced = await writeZip(out, again, { date: '2026-11-23', placedBefore });
    expect(replaced).toMatchObject({ relativePath: 'Cap.zip', status: 'written', replaced: true });
    expect(execFileSync('unzip', ['-p', join(out, 'Cap.zip'), changed.path]).equals(bytes)).toBe(true);
    expect((await listFiles(out)).filter((path) => path.endsWith('.zip'))).toEqual(['Cap.zip']);
    // A zip someone changed since is a stranger's: kept, the new one beside it.
    await writeFile(join(out, 'Cap.zip'), 'repacked by hand');
    const stranger = { ...zip, entries: again.entries.slice(1) };
    const ours = { ...replaced, plannedPath: zip.path, width: 0, height: 0, warnings: [] };
    expect(await writeZip(out, stranger, { date: '2026-11-23', placedBefore: ours })).toMatchObject({
      relativePath: 'Cap (2).zip',
      keptChanged: 'Cap.zip',
    });
    expect(await readFile(join(out, 'Cap.zip'), 'utf8')).toBe('repacked by hand');
  }, 60_000);

  it('removes its .part when cancelled, and leaves the name free', async () => {
    const out = join(root, 'zip-cancel');
    const plan = await planExport({ items, recipes: [builtInRecipe('web')], date: '2026-11-23' });
    const report = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: out });
    const [zip] = planZips(report.files, 'per-recipe', []);
    const controller = new AbortController();
    controller.abort();
    await expect(writeZip(out, zip!, { date: '2026-11-23', signal: controller.signal })).rejects.toThrow();
    expect((await listFiles(out)).filter((path) => path.endsWith('.zip') || path.includes('.part'))).toEqual(
      [],
    );
  }, 60_000);
});

describe('the built export worker', () => {
  it('runs under plain Node from out/main, as the built app starts it (npm run build first)', async () => {
    if (!existsSync(BUILT_WORKER))
      throw new Error('out/main/export-worker.js is missing: run `npm run build` first.');
    const plan = await planExport({ items, recipes: [builtInRecipe('shopify')], date: '2026-11-23' });
    const out = join(root, 'built-worker');
    const report = await runExportInWorker(
      { acceptWarnings: ACCEPT_ALL, plan, destination: out, manifest: { csv: false, json: true } },
      pathToFileURL(BUILT_WORKER),
    );
    expect(report).toMatchObject({ status: 'done', written: plan.files.length, failed: 0 });
    for (const file of report.files) {
      expect(await sha256Of(join(out, file.relativePath))).toBe(file.sha256);
      const metadata = await sharp(join(out, file.relativePath)).metadata();
      // Each file at its planned size: the results' own pixels, nothing enlarged.
      expect([metadata.width, metadata.height]).toEqual([file.planned.width, file.planned.height]);
      expect(file.planned.scale).toBe(1);
    }
  }, 60_000);
});
