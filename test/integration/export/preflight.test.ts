import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { type PlannedFile, planExport } from '../../../src-main/core/export/plan.ts';
import { pixelChecksOf } from '../../../src-main/core/export/plan-pixels.ts';
import { summarisePreflight } from '../../../src-main/core/export/preflight-summary.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { listFiles, sha256Of } from '../../support/export-checks.ts';
import { exportItem } from '../../support/export-item.ts';
import { makeSources, PRODUCTS, type Sources } from '../../support/export-sources.ts';

// The export's pre-flight (issue 29, points 2, 3 and 5) on real images decoded by sharp: the sample product
// photos of ../shared/fixtures/products (Solidus sample data; its license is in LICENSE-solidus.md there)
// and a shot rendered by the sandbox as the service would. Everything knowable before a file is written is
// in the plan; what it finds holds its file back unless the export accepts that kind; nothing is enlarged
// unless the recipe says so, and the size checks count the result's own pixels; crops keep the product.

let root: string;
let sources: Sources;
/** The cap photo on white, placed at the left of a wide frame: a centre crop would miss it. */
let capAtLeft: string;
/** The same photo shrunk under Amazon's 1000 px minimum. */
let small: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-preflight-'));
  sources = await makeSources(join(root, 'sources'));
  const cap = await sharp(join(PRODUCTS, 'cap-black/solidus_cap_black_1.png'))
    .flatten({ background: '#ffffff' })
    .resize({ height: 1000 })
    .png()
    .toBuffer();
  capAtLeft = join(root, 'cap-at-left.png');
  await sharp({ create: { width: 2800, height: 1000, channels: 3, background: '#ffffff' } })
    .composite([{ input: cap, left: 0, top: 0 }])
    .png()
    .toFile(capAtLeft);
  small = join(root, 'small.png');
  await sharp(join(PRODUCTS, 'hat/solidus_hat.png'))
    .flatten({ background: '#ffffff' })
    .resize(800)
    .toFile(small);
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const shot = (key: string, file: string, overrides: Partial<ExportItem> = {}) =>
  exportItem({ key, file, ...overrides });

const kinds = (file: PlannedFile) => file.checks.map((check) => check.kind);

describe('the plan’s pre-flight', () => {
  it('never enlarges unless the recipe says so, and counts the result’s own pixels either way', async () => {
    // The sandbox's shot: 1024 x 1024, the service's Standard quality.
    const plan = await planExport({
      items: [shot('cap-1', sources.aiShot)],
      recipes: [
        builtInRecipe('shopify'),
        { ...builtInRecipe('shopify')!, id: 'shopify-up', allowUpscale: true },
      ],
      date: '2026-11-27',
    });
    const [plain, enlarged] = plan.files;
    expect([plain!.width, plain!.height, plain!.scale]).toEqual([1024, 1024, 1]);
    expect(plain!.checks).toEqual([
      {
        kind: 'below_recommended',
        severity: 'warning',
        message: '1024 px of the result on the long side; Shopify wants 2048 px: choose Pro (2K).',
      },
    ]);
    // Allowed to enlarge: a 2048 px file that still says what it is made of, and that it was enlarged.
    expect([enlarged!.width, enlarged!.height, enlarged!.scale]).toEqual([2048, 2048, 2]);
    expect(kinds(enlarged!)).toEqual(['below_recommended', 'upscaled']);
    expect(enlarged!.checks[0]!.message).toMatch(/^1024 px of the result on the long side/);
  });

  it('says under the channel’s minimum as an error, and holds the file back with the reason', async () => {
    const plan = await planExport({
      items: [shot('hat-1', small, { productKey: 'hat', sku: 'B000HAT001' })],
      recipes: [builtInRecipe('amazon-main')],
      date: '2026-11-27',
    });
    expect(plan.files[0]!.checks[0]).toEqual({
      kind: 'too_small',
      severity: 'error',
      message:
        '800 px of the result on the long side; Amazon main needs at least 1000 px: choose Standard (1K).',
    });
    const out = join(root, 'too-small');
    // Every warning accepted: an error holds its file back all the same.
    const report = await runExport({
      plan,
      destination: out,
      acceptWarnings: ['below_recommended', 'upscaled', 'not_white', 'low_fill', 'not_srgb'],
    });
    expect(report.files[0]).toMatchObject({ status: 'failed' });
    expect(report.files[0]!.error).toMatch(/^Not written \(pre-flight\): 800 px of the result/);
    expect(await listFiles(out).catch(() => [])).toEqual([]);
  }, 60_000);

  it('measures the white background on the rendered pixels before anything is written', async () => {
    const items = [
      // A lifestyle backdrop: not white at the edges.
      shot('cap-1', sources.aiShot),
      // A product on pure white, filling the frame.
      shot('hat-1', sources.fillsWhite, { productKey: 'hat', sku: 'B000HAT001' }),
      // A small product on pure white.
      shot('tote-1', sources.smallOnWhite, { productKey: 'tote', sku: 'B000TOTE01' }),
    ];
    const plan = await planExport({ items, recipes: [builtInRecipe('amazon-main')], date: '2026-11-27' });
    const measured = await pixelChecksOf(plan.files);
    expect(measured.get(0)!.map((check) => check.kind)).toEqual(['not_white']);
    expect(measured.get(1)).toEqual([]);
    expect(measured.get(2)!.map((check) => check.kind)).toEqual(['low_fill']);
    const checks = plan.files.map((file) => [...file.checks, ...(measured.get(file.index) ?? [])]);
    // Up front, per kind, with counts; two files held back as long as nothing is accepted.
    const summary = summarisePreflight(checks, []);
    expect(summary.kinds.map(({ kind, files, accepted }) => ({ kind, files, accepted }))).toEqual([
      { kind: 'below_recommended', files: 3, accepted: false },
      { kind: 'not_white', files: 1, accepted: false },
      { kind: 'low_fill', files: 1, accepted: false },
    ]);
    expect(summary.blocked).toBe(3);
    expect(summarisePreflight(checks, ['below_recommended', 'not_white']).blocked).toBe(1);

    // The run holds back what is not accepted, and writes what is, with its warnings.
    const out = join(root, 'white');
    const report = await runExport({
      plan,
      destination: out,
      acceptWarnings: ['below_recommended', 'not_white'],
    });
    expect(report.files.map((file) => [file.planned.item.key, file.status])).toEqual([
      ['cap-1', 'written'],
      ['hat-1', 'written'],
      ['tote-1', 'failed'],
    ]);
    expect(report.files[0]!.warnings.join('\n')).toMatch(/not pure white/);
    expect(report.files[2]!.error).toMatch(/The product spans 42 % of the frame.*\(not accepted: /);
    expect(await listFiles(out)).toEqual([
      'Amazon main/B000CAP001.MAIN.jpg',
      'Amazon main/B000HAT001.MAIN.jpg',
    ]);
  }, 60_000);
});

describe('the Original recipe', () => {
  it('copies a result’s downloaded bytes exactly', async () => {
    const plan = await planExport({
      items: [shot('cap-1', sources.aiShot)],
      recipes: [builtInRecipe('original')],
      date: '2026-11-27',
    });
    expect(plan.files[0]!.copy).toBe(true);
    const out = join(root, 'original');
    const report = await runExport({ plan, destination: out });
    const written = join(out, report.files[0]!.relativePath);
    expect(await readFile(written)).toEqual(await readFile(sources.aiShot));
    expect(await sha256Of(written)).toBe(await sha256Of(sources.aiShot));
  }, 60_000);
});

describe('a crop', () => {
  /** The mean of the red channel: 255 on pure white, lower where the black cap is. */
  const redMean = async (path: string) => (await sharp(path).stats()).channels[0]!.mean;

  const feed = async (name: string, focus: ExportItem['focus']) => {
    const plan = await planExport({
      items: [shot('cap-1', capAtLeft, { focus })],
      recipes: [builtInRecipe('instagram-feed')],
      date: '2026-11-27',
    });
    const out = join(root, name);
    const report = await runExport({ plan, destination: out, acceptWarnings: ['below_recommended'] });
    return join(out, report.files[0]!.relativePath);
  };

  it('keeps the product where the canvas’s centre is empty', async () => {
    const centre = join(root, 'centre.png');
    // What a centre crop of the same frame takes: white only.
    await sharp(capAtLeft).resize(800, 1000, { fit: 'cover', position: 'centre' }).toFile(centre);
    expect(await redMean(centre)).toBeGreaterThan(254);
    const cropped = await feed('crop-attention', null);
    expect(await sharp(cropped).metadata()).toMatchObject({ width: 800, height: 1000 });
    expect(await redMean(cropped)).toBeLessThan(240);
  }, 60_000);

  it('centres on the focus point the designer set', async () => {
    expect(await redMean(await feed('crop-focus-right', { x: 0.95, y: 0.5 }))).toBeGreaterThan(254);
    expect(await redMean(await feed('crop-focus-left', { x: 0.1, y: 0.5 }))).toBeLessThan(240);
  }, 60_000);
});

describe('paths for Windows', () => {
  const long = 'A product whose name goes on and on, as catalogs’ titles do, Black Cap'.repeat(2);

  it('cut a name in its middle to keep the whole path under 260 characters, its distinguishing end kept', async () => {
    const destination = join('/exports', 'x'.repeat(100));
    const plan = await planExport({
      items: [
        shot('cap-1', sources.aiShot, { product: long }),
        shot('cap-2', sources.fillsWhite, { product: long, shot: 2 }),
      ],
      recipes: [builtInRecipe('instagram-feed')],
      date: '2026-11-27',
      destination,
    });
    const paths = plan.files.map((file) => file.relativePath);
    for (const path of paths) expect(destination.length + 1 + path.length).toBeLessThan(260 - 4);
    expect(paths[0]).toMatch(/^Instagram feed\/A product whose.*….*Black Cap-classic-01-feed\.jpg$/);
    expect(paths[1]).toMatch(/-classic-02-feed\.jpg$/);
    expect(
      plan.files.flatMap((file) => file.checks).filter((check) => check.kind === 'path_too_long'),
    ).toEqual([]);
  });

  it('say a path that cannot be made short enough as a pre-flight error', async () => {
    const destination = join('/exports', 'y'.repeat(240));
    const plan = await planExport({
      items: [shot('cap-1', sources.aiShot)],
      recipes: [builtInRecipe('instagram-feed')],
      date: '2026-11-27',
      destination,
    });
    expect(plan.files[0]!.checks.find((check) => check.kind === 'path_too_long')).toMatchObject({
      severity: 'error',
      message: expect.stringMatching(/^The whole path is \d+ characters; Windows opens at most 259/),
    });
  });
});
