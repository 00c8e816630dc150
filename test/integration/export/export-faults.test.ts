import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { BUILT_IN_RECIPES, builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { startChild } from '../../support/child-process.ts';
import { listFiles, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';
import { canMount, smallDisk } from '../../support/small-disk.ts';

let root: string;
let items: ExportItem[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-export-faults-'));
  const sources = await makeSources(join(root, 'sources'));
  const files = [sources.aiShot, sources.fillsWhite, sources.gpsPhoto, sources.cutout];
  // Six products of four shots: enough files for a kill to land in the middle of the run.
  items = Array.from({ length: 6 }, (_, product) =>
    files.map((file, shot) =>
      exportItem({
        key: `p${product}-s${shot}`,
        file,
        productKey: `p${product}`,
        product: `Product ${product}`,
        handle: `product-${product}`,
        sku: `B00000${product}`,
        shot: shot + 1,
        stars: 3,
      }),
    ),
  ).flat();
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function partFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).filter((path) => path.endsWith('.part'));
}

describe.runIf(canMount)('a full disk', () => {
  it('stops the export with the reason, keeps the finished files whole, leaves no .part, and a re-run finishes', async () => {
    const disk = smallDisk(root, { sizeBytes: 8 * 1024 * 1024, freeBytes: 1536 * 1024 });
    try {
      const out = join(disk.library, 'export');
      // Enlarged to 2048 px, as the recipe allows: files big enough to fill the small disk.
      const shopify = { ...builtInRecipe('shopify')!, allowUpscale: true };
      const plan = await planExport({ items, recipes: [shopify], date: '2026-11-23' });
      const report = await runExport({
        acceptWarnings: ACCEPT_ALL,
        plan,
        destination: out,
        manifest: { csv: true, json: false },
      });
      expect(report.status).toBe('stopped');
      expect(report.fault?.kind).toBe('disk_full');
      expect(report.message).toMatch(
        /^The disk that holds the export folder \(.*\/export\) is full: free some space, or choose another folder\. (The file finished so far is|The \d+ files finished so far are) kept/,
      );
      expect(report.written).toBeGreaterThan(0);
      expect(report.written).toBeLessThan(plan.files.length);
      expect(await partFiles(out)).toEqual([]);
      expect(await listFiles(out)).toEqual(report.files.map((file) => file.relativePath).sort());
      for (const file of report.files) {
        expect(await sha256Of(join(out, file.relativePath))).toBe(file.sha256);
        await sharp(join(out, file.relativePath)).raw().toBuffer();
      }
      await disk.mend();
      const resumed = await runExport({
        acceptWarnings: ACCEPT_ALL,
        plan,
        destination: out,
        manifest: { csv: true, json: false },
      });
      expect(resumed).toMatchObject({
        status: 'done',
        identical: report.written,
        written: plan.files.length - report.written,
      });
      expect(await listFiles(out)).toEqual(
        [...plan.files.map((file) => file.relativePath), 'manifest.csv'].sort(),
      );
    } finally {
      await disk.close();
    }
  }, 120_000);
});

describe.runIf(canMount)('a read-only folder', () => {
  it('stops the export at once with the reason and writes nothing', async () => {
    const mount = join(root, 'read-only');
    await mkdir(mount, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mount]);
    try {
      const plan = await planExport({
        items: items.slice(0, 4),
        recipes: [builtInRecipe('web')],
        date: '2026-11-23',
      });
      const report = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: mount });
      expect(report).toMatchObject({ status: 'stopped', written: 0, fault: { kind: 'read_only' } });
      expect(report.message).toBe(
        `The export folder (${mount}) is on a read-only disk: choose another folder.`,
      );
      expect(await listFiles(mount)).toEqual([]);
    } finally {
      execFileSync('umount', ['-l', mount]);
    }
  }, 60_000);
});

describe('a source that is damaged or gone', () => {
  it('fails that file alone, in words of its own, and writes the others', async () => {
    const dir = join(root, 'sources-at-fault');
    await mkdir(dir, { recursive: true });
    const whole = await sharp(items[0]!.file).jpeg().toBuffer();
    const cut = join(dir, 'cut.jpg');
    const gone = join(dir, 'gone.jpg');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await writeFile(gone, whole);
    const faulty = [
      exportItem({ key: 'cut', file: cut, productKey: 'cut', handle: 'cut', sku: 'B0000CUT01' }),
      exportItem({ key: 'gone', file: gone, productKey: 'gone', handle: 'gone', sku: 'B000GONE01' }),
      items[0]!,
    ];
    const plan = await planExport({ items: faulty, recipes: [builtInRecipe('web')], date: '2026-11-23' });
    await rm(gone);
    const out = join(root, 'export-sources-at-fault');
    const report = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: out });
    expect(report.status).toBe('done');
    const errorOf = (file: string) =>
      report.files.find((outcome) => outcome.planned.item.file === file)?.error;
    expect(errorOf(cut)).toBe(
      `${cut} could not be exported: the image does not decode: its data is damaged or cut short`,
    );
    expect(errorOf(gone)).toBe(
      `${gone} could not be exported: ${gone} does not exist: it was moved, renamed or deleted, or its drive is unplugged. Check the path, or choose where it is now.`,
    );
    const written = report.files.filter((outcome) => outcome.status !== 'failed');
    expect(written.map((outcome) => outcome.planned.item.file)).toEqual([items[0]!.file]);
    expect(await listFiles(out)).toEqual(written.map((outcome) => outcome.relativePath).sort());
  }, 60_000);
});

describe('an export killed mid-run', () => {
  it('ends, once run again, with exactly the planned files, whole, and no .part', async () => {
    const out = join(root, 'export-killed');
    const request = {
      items,
      recipes: [...BUILT_IN_RECIPES].filter((recipe) => recipe.id !== 'original'),
      date: '2026-11-23',
      destination: out,
    };
    const requestFile = join(root, 'request.json');
    await writeFile(requestFile, JSON.stringify(request));
    const child = startChild(['--import', 'tsx', 'test/support/export-child.ts', requestFile]);
    await child.waitFor(/done 7 /);
    await child.kill();
    expect(child.output()).not.toMatch(/finished/);
    const plan = await planExport(request);
    const beforeResume = await listFiles(out);
    expect(beforeResume.length).toBeLessThan(plan.files.length);
    const report = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: out });
    expect(report.status).toBe('done');
    expect(report.written + report.identical).toBe(plan.files.length);
    expect(await listFiles(out)).toEqual(plan.files.map((file) => file.relativePath).sort());
    for (const file of report.files) expect(await sha256Of(join(out, file.relativePath))).toBe(file.sha256);
  }, 120_000);
});
