import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { isSrgbProfile } from '../../../src-main/core/export/preflight.ts';
import { BUILT_IN_RECIPES, builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { type ExportProgress, runExport } from '../../../src-main/core/export/run.ts';
import { runExportInWorker } from '../../../src-main/core/export/run-in-worker.ts';
import { probeVideo } from '../../../src-main/core/export/video-probe.ts';
import { TRAINED_ALGORITHMIC_MEDIA } from '../../../src-main/core/export/xmp.ts';
import { fileStamps, listFiles, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { makeSources, type Sources } from '../../support/export-sources.ts';

let root: string;
let sources: Sources;
let items: ExportItem[];
const EVERYTHING_PICKED = { rule: 'picked', minStars: 0, videos: true, sources: true } as const;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-export-'));
  sources = await makeSources(join(root, 'sources'));
  const hat = {
    productKey: 'hat',
    product: 'Hat',
    sku: 'B000HAT001',
    handle: 'hat',
    sourcePhotos: ['solidus_hat.png'],
  };
  items = [
    exportItem({
      key: 'cap-source',
      kind: 'source',
      file: sources.gpsPhoto,
      flag: null,
      aiGenerated: false,
      jobId: null,
      credits: null,
    }),
    exportItem({ key: 'cap-1', file: sources.aiShot, shot: 1, stars: 5, label: 'green' }),
    exportItem({ key: 'cap-2', file: sources.fillsWhite, shot: 2, stars: 3 }),
    exportItem({ key: 'cap-3', file: sources.smallOnWhite, shot: 3, flag: 'rejected' }),
    exportItem({ key: 'hat-1', file: sources.smallOnWhite, shot: 1, stars: 2, ...hat }),
    exportItem({ key: 'hat-2', file: sources.cutout, shot: 2, stars: 4, ...hat }),
    exportItem({ key: 'hat-video', kind: 'video', file: sources.video, shot: 1, ...hat }),
  ];
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run's signal and progress that cancel it once `done` files are finished (the events kept in `events`). */
function cancelledAfter(done: number, events: ExportProgress[] = []) {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    onProgress: (event: ExportProgress) => {
      events.push(event);
      if (event.done === done) controller.abort();
    },
  };
}

const FORMAT_OF_EXT: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif' };

async function pixelAt(path: string, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(path)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

describe('an export of every built-in recipe', () => {
  let out: string;
  let report: Awaited<ReturnType<typeof runExport>>;
  let plan: Awaited<ReturnType<typeof planExport>>;
  const progress: ExportProgress[] = [];

  beforeAll(async () => {
    out = join(root, 'export-all');
    plan = await planExport({
      items,
      recipes: [...BUILT_IN_RECIPES],
      selection: EVERYTHING_PICKED,
      date: '2026-11-23',
    });
    report = await runExport({
      plan,
      destination: out,
      manifest: { csv: true, json: true },
      onProgress: (event) => progress.push(event),
      acceptWarnings: ACCEPT_ALL,
    });
  }, 120_000);

  it('writes every planned file under its planned name, and nothing else', async () => {
    expect(report.status).toBe('done');
    expect(report.failed).toBe(0);
    expect(report.written).toBe(plan.files.length);
    expect(await listFiles(out)).toEqual(
      [...plan.files.map((file) => file.relativePath), 'manifest.csv', 'manifest.json'].sort(),
    );
    expect(plan.files.map((file) => file.relativePath)).toEqual(
      expect.arrayContaining([
        'Amazon main/B000CAP001.MAIN.jpg',
        'Amazon main/B000HAT001.MAIN.jpg',
        'Amazon additional/B000CAP001.PT01.jpg',
        'Amazon additional/B000HAT001.PT01.jpg',
        'Original/Hat/Hat-classic-01.mp4',
        'Story and Reels/Hat-classic-01-story.mp4',
      ]),
    );
    expect(plan.files.some((file) => file.item.key === 'cap-3')).toBe(false);
    expect(progress.at(-1)).toMatchObject({ done: plan.files.length, total: plan.files.length, etaMs: 0 });
    expect(progress.at(-1)!.bytesWritten).toBe(report.bytesWritten);
  });

  it('writes files that decode to the planned size and format, sRGB with its profile, with XMP and no EXIF or GPS', async () => {
    for (const file of report.files) {
      const path = join(out, file.relativePath);
      expect(await sha256Of(path)).toBe(file.sha256);
      if (file.planned.item.kind === 'video' && !file.planned.copy) {
        // Made anew for a channel by a recipe that names it (video-channels.test.ts holds those files
        // against the channel's every fact).
        expect((await probeVideo(path)).video, file.relativePath).toMatchObject({
          codec: 'h264',
          profile: 'High',
          width: file.width,
          height: file.height,
        });
        continue;
      }
      if (file.planned.copy) {
        // A video a recipe copies, and a result in the Original recipe: the downloaded bytes exactly.
        expect(await readFile(path)).toEqual(await readFile(file.planned.item.file));
        continue;
      }
      const metadata = await sharp(path).metadata();
      const where = file.relativePath;
      expect(metadata.format, where).toBe(FORMAT_OF_EXT[file.planned.ext]);
      expect([metadata.width, metadata.height], where).toEqual([file.planned.width, file.planned.height]);
      expect(metadata.space, where).toBe('srgb');
      expect(metadata.icc && isSrgbProfile(metadata.icc), where).toBe(true);
      expect(metadata.exif, where).toBeUndefined();
      const xmp = metadata.xmpAsString ?? '';
      expect(xmp, where).toContain(`xmp:Rating="${file.planned.item.stars}"`);
      // The colour label by the name Lightroom's default label set gives it; none where none was given.
      expect(/xmp:Label="([^"]*)"/.exec(xmp)?.[1], where).toBe(
        file.planned.item.label === 'green' ? 'Green' : undefined,
      );
      expect(xmp, where).toContain(`>${file.planned.item.product}</rdf:li>`);
      expect(xmp.includes(TRAINED_ALGORITHMIC_MEDIA), where).toBe(file.planned.item.aiGenerated);
    }
    // The source did carry GPS: its EXIF has the GPS IFD's pointer (tag 0x8825, little- or big-endian).
    const exif = (await sharp(sources.gpsPhoto).metadata()).exif!;
    expect(exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25]))).toBe(true);
  });

  it('sizes each channel as its recipe says, padding with pure white and flattening transparency on white', async () => {
    const byRecipe = (id: string, key: string) =>
      report.files.find((file) => file.planned.recipe.id === id && file.planned.item.key === key)!;
    // Nothing enlarged: a source smaller than the frame makes the frame's shape at the source's pixels.
    const shopifyPhoto = byRecipe('shopify', 'cap-source');
    expect([shopifyPhoto.width, shopifyPhoto.height]).toEqual([1200, 1200]);
    // 1200 x 800 in a 1200 x 1200 square: 200 rows of padding above and below.
    const path = join(out, shopifyPhoto.relativePath);
    expect(await pixelAt(path, 600, 100)).toEqual([255, 255, 255]);
    expect(await pixelAt(path, 600, 1100)).toEqual([255, 255, 255]);
    const cutout = join(out, byRecipe('shopify', 'hat-2').relativePath);
    expect(await pixelAt(cutout, 50, 600)).toEqual([255, 255, 255]);
    const red = await pixelAt(cutout, 600, 600);
    expect(red[0]).toBeGreaterThan(180);
    expect(red[1]).toBeLessThan(70);
    // A 1024 px square result: 4:5 and 9:16 at its own pixels.
    expect([byRecipe('instagram-feed', 'cap-1').width, byRecipe('instagram-feed', 'cap-1').height]).toEqual([
      819, 1024,
    ]);
    expect([byRecipe('story-reels', 'cap-1').width, byRecipe('story-reels', 'cap-1').height]).toEqual([
      1024, 1820,
    ]);
    expect(byRecipe('web', 'cap-2')).toMatchObject({ width: 1200, height: 900 });
    // Amazon's main image is the cap's first pick on white (its second), not its first, a scene.
    expect(byRecipe('amazon-main', 'cap-2')).toMatchObject({ width: 1200, height: 900 });
    expect(byRecipe('amazon-additional', 'cap-1')).toMatchObject({ width: 1024, height: 1024 });
  });

  it('warns before writing what a channel will refuse: the white background, the fill, the size', () => {
    const warnings = (id: string, key: string) =>
      report.files
        .find((file) => file.planned.recipe.id === id && file.planned.item.key === key)!
        .warnings.join('\n');
    expect(warnings('amazon-main', 'hat-1')).toMatch(
      /The product spans 42 % of the frame; Amazon main asks for at least 85 %/,
    );
    expect(warnings('amazon-main', 'hat-1')).not.toMatch(/not pure white/);
    expect(warnings('amazon-main', 'cap-2')).not.toMatch(/not pure white/);
    // Under the channel's recommended size, counted on the result's pixels, with the quality that suffices.
    expect(warnings('shopify', 'cap-2')).toBe(
      '1200 px of the result on the long side; Shopify wants 2048 px: choose Pro (2K).',
    );
    expect(warnings('story-reels', 'cap-1')).toBe(
      '1820 px of the result on the long side; Story and Reels wants 1920 px: choose Pro (2K).',
    );
    expect(warnings('amazon-additional', 'cap-1')).toBe(
      '1024 px of the result on the long side; Amazon additional wants 1600 px: choose Pro (2K).',
    );
    expect(warnings('web', 'cap-2')).toBe('');
  });

  it('writes a manifest whose every row is a file with its sha256, the same in CSV and JSON', async () => {
    const json = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      files: Array<Record<string, unknown>>;
    };
    const csv = parse(await readFile(join(out, 'manifest.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(json.files).toHaveLength(plan.files.length);
    expect(csv).toHaveLength(plan.files.length);
    for (const [index, row] of json.files.entries()) {
      expect(await sha256Of(join(out, row.path as string))).toBe(row.sha256);
      const line = csv[index]!;
      expect(line.path).toBe(row.path);
      expect(line.sha256).toBe(row.sha256);
      expect(line.source_photos).toBe((row.sourcePhotos as string[]).join(' | '));
      expect(Number(line.bytes)).toBe(row.bytes);
    }
    expect(json.files[0]).toMatchObject({
      brand: 'Solidus',
      product: 'Cap',
      sku: 'B000CAP001',
      recipe: 'Original',
    });
  });

  it('writes nothing when run again into the same folder', async () => {
    const before = await fileStamps(out);
    const again = await planExport({
      items,
      recipes: [...BUILT_IN_RECIPES],
      selection: EVERYTHING_PICKED,
      date: '2026-11-23',
    });
    const second = await runExport({
      plan: again,
      destination: out,
      manifest: { csv: true, json: true },
      acceptWarnings: ACCEPT_ALL,
    });
    expect(second).toMatchObject({
      status: 'done',
      written: 0,
      identical: plan.files.length,
      bytesWritten: 0,
    });
    expect(second.manifests).toEqual(['manifest.csv', 'manifest.json']);
    expect(await fileStamps(out)).toEqual(before);
  }, 120_000);
});

describe('files that are not this export’s', () => {
  it('are never overwritten: the export goes beside them, and finds its own file there the next time', async () => {
    const out = join(root, 'export-foreign');
    const recipes = [builtInRecipe('shopify')];
    const plan = await planExport({ items, recipes, date: '2026-11-23' });
    const first = plan.files[0]!.relativePath;
    expect(first).toBe('Shopify/cap-black-01.jpg');
    await mkdir(join(out, 'Shopify'), { recursive: true });
    await writeFile(join(out, first), 'the designer’s own file');
    await writeFile(join(out, 'Shopify/CAP-BLACK-02.JPG'), 'another one, in other case');
    const report = await runExport({ plan, destination: out, acceptWarnings: ACCEPT_ALL });
    expect(await readFile(join(out, first), 'utf8')).toBe('the designer’s own file');
    expect(report.files.map((file) => file.relativePath)).toEqual([
      'Shopify/cap-black-01 (2).jpg',
      'Shopify/cap-black-02.jpg',
      'Shopify/hat-01.jpg',
      'Shopify/hat-02.jpg',
    ]);
    const again = await runExport({ plan, destination: out, acceptWarnings: ACCEPT_ALL });
    expect(again).toMatchObject({ written: 0, identical: 4 });
    expect(again.files.map((file) => file.relativePath)).toEqual(
      report.files.map((file) => file.relativePath),
    );
  }, 60_000);
});

describe('a cancelled export', () => {
  it('keeps what it finished, leaves no partial file, and a re-run finishes it under the same names', async () => {
    const out = join(root, 'export-cancel');
    const plan = await planExport({
      items,
      recipes: [...BUILT_IN_RECIPES],
      selection: EVERYTHING_PICKED,
      date: '2026-11-23',
    });
    const report = await runExport({
      plan,
      destination: out,
      acceptWarnings: ACCEPT_ALL,
      ...cancelledAfter(3),
    });
    expect(report.status).toBe('cancelled');
    expect(report.files.length).toBeGreaterThanOrEqual(3);
    expect(report.files.length).toBeLessThan(plan.files.length);
    const afterCancel = await listFiles(out);
    expect(afterCancel.filter((path) => path.endsWith('.part'))).toEqual([]);
    expect(afterCancel).toEqual(report.files.map((file) => file.relativePath).sort());
    const resumed = await runExport({ plan, destination: out, acceptWarnings: ACCEPT_ALL });
    expect(resumed).toMatchObject({
      status: 'done',
      identical: report.files.length,
      written: plan.files.length - report.files.length,
    });
    expect(await listFiles(out)).toEqual(plan.files.map((file) => file.relativePath).sort());
  }, 120_000);
});

describe('the settings of a started export', () => {
  it('are the ones it started with, whatever changes after', async () => {
    const recipe = structuredClone(builtInRecipe('web')!);
    const plan = await planExport({ items: items.slice(1, 2), recipes: [recipe], date: '2026-11-23' });
    recipe.size = { kind: 'long-edge', px: 300 };
    recipe.format = { type: 'png' };
    const out = join(root, 'export-snapshot');
    const report = await runExport({ plan, destination: out });
    const metadata = await sharp(join(out, report.files[0]!.relativePath)).metadata();
    expect([metadata.format, metadata.width]).toEqual(['webp', 1024]);
    expect(Object.isFrozen(plan.recipes[0]!.size)).toBe(true);
  }, 60_000);
});

describe('an export in its worker thread', () => {
  it('answers as in-process, reports progress, and cancels', async () => {
    const plan = await planExport({
      items,
      recipes: [builtInRecipe('web'), builtInRecipe('shopify')],
      date: '2026-11-23',
    });
    const out = join(root, 'export-worker');
    const events: ExportProgress[] = [];
    const cancelled = await runExportInWorker({
      plan,
      destination: out,
      acceptWarnings: ACCEPT_ALL,
      ...cancelledAfter(2, events),
    });
    expect(cancelled.status).toBe('cancelled');
    expect((await listFiles(out)).filter((path) => path.endsWith('.part'))).toEqual([]);
    const report = await runExportInWorker({
      plan,
      destination: out,
      manifest: { csv: false, json: true },
      acceptWarnings: ACCEPT_ALL,
    });
    expect(report).toMatchObject({
      status: 'done',
      identical: cancelled.files.length,
      written: plan.files.length - cancelled.files.length,
    });
    for (const file of report.files) expect(await sha256Of(join(out, file.relativePath))).toBe(file.sha256);
    expect(events[0]).toMatchObject({ done: 1, total: plan.files.length });
  }, 120_000);
});
