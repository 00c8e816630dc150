import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportItem } from '../../../src-main/core/export/export-item.ts';
import { type PlacedBefore, placedBeforeOf } from '../../../src-main/core/export/placed-before.ts';
import { type ExportPlan, planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import * as render from '../../../src-main/core/export/render.ts';
import { type FileOutcome, runExport } from '../../../src-main/core/export/run.ts';
import { runExportInWorker } from '../../../src-main/core/export/run-in-worker.ts';
import { fileStamps, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL, exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';

// A resumed or repeated export does not render again what an earlier run placed and is still there
// (placed-before.ts): the real decode counted, on real files. What changed since (a stranger's bytes under
// the name, a result's stars) is rendered again and placed as before, never over a stranger's file.

vi.mock('../../../src-main/core/export/render.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src-main/core/export/render.ts')>();
  return { ...original, decodeSource: vi.fn(original.decodeSource) };
});
const decodes = vi.mocked(render.decodeSource);

let root: string;
let items: ExportItem[];
const recipes = [builtInRecipe('shopify'), builtInRecipe('amazon-main'), builtInRecipe('web')];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-placed-before-'));
  const sources = await makeSources(join(root, 'sources'));
  items = [
    exportItem({ key: 'cap-1', file: sources.aiShot, shot: 1, stars: 5 }),
    exportItem({ key: 'cap-2', file: sources.fillsWhite, shot: 2, stars: 3 }),
    exportItem({ key: 'cap-3', file: sources.smallOnWhite, shot: 3 }),
  ];
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// A block: a function returned from beforeEach is run as its clean-up, and mockClear returns the mock.
beforeEach(() => {
  decodes.mockClear();
});

const asPlaced = (outcomes: FileOutcome[]): PlacedBefore[] =>
  outcomes.map((outcome) => placedBeforeOf(outcome)!);

async function firstRun(out: string, plan: ExportPlan) {
  const placed: FileOutcome[] = [];
  const report = await runExport({
    acceptWarnings: ACCEPT_ALL,
    plan,
    destination: out,
    onFile: (outcome) => placed.push(outcome),
  });
  expect(report).toMatchObject({ status: 'done', written: plan.files.length });
  expect(placed).toHaveLength(plan.files.length);
  return { report, placedBefore: asPlaced(placed) };
}

describe('an export run again with what the earlier run placed', () => {
  it('decodes no source, writes nothing, and reports the files and their warnings as before', async () => {
    const out = join(root, 'again');
    const plan = await planExport({ items, recipes, date: '2026-11-23' });
    const { report, placedBefore } = await firstRun(out, plan);
    expect(decodes).toHaveBeenCalledTimes(items.length);
    expect(report.files.some((file) => file.warnings.length > 0)).toBe(true);
    const stamps = await fileStamps(out);

    decodes.mockClear();
    const again = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: out, placedBefore });
    expect(decodes).not.toHaveBeenCalled();
    expect(again).toMatchObject({ status: 'done', written: 0, identical: plan.files.length });
    const facts = ({ relativePath, sha256, bytes, width, height, warnings }: FileOutcome) => ({
      relativePath,
      sha256,
      bytes,
      width,
      height,
      warnings,
    });
    expect(again.files.map(facts)).toEqual(report.files.map(facts));
    expect(await fileStamps(out)).toEqual(stamps);
  }, 120_000);

  it('renders again a file a stranger changed since, and puts it beside the stranger’s, not over it', async () => {
    const out = join(root, 'changed');
    const plan = await planExport({ items, recipes, date: '2026-11-23' });
    const { placedBefore } = await firstRun(out, plan);
    const changed = plan.files[0]!.relativePath;
    await writeFile(join(out, changed), 'the designer’s own file now');

    decodes.mockClear();
    const again = await runExport({ acceptWarnings: ACCEPT_ALL, plan, destination: out, placedBefore });
    expect(decodes).toHaveBeenCalledTimes(1);
    expect(decodes).toHaveBeenCalledWith(plan.files[0]!.item.file);
    expect(again).toMatchObject({ written: 1, identical: plan.files.length - 1 });
    expect(again.files[0]!.relativePath).toBe(changed.replace('.jpg', ' (2).jpg'));
    expect(await readFile(join(out, changed), 'utf8')).toBe('the designer’s own file now');
    expect(await sha256Of(join(out, again.files[0]!.relativePath))).toBe(again.files[0]!.sha256);
  }, 120_000);

  it('renders again the results whose facts changed (their stars go into the XMP)', async () => {
    const out = join(root, 'restarred');
    const plan = await planExport({ items, recipes, date: '2026-11-23' });
    const { placedBefore } = await firstRun(out, plan);
    const restarred = items.map((item) => (item.key === 'cap-2' ? { ...item, stars: 1 } : item));
    const replanned = await planExport({ items: restarred, recipes, date: '2026-11-23' });

    decodes.mockClear();
    const again = await runExport({
      acceptWarnings: ACCEPT_ALL,
      plan: replanned,
      destination: out,
      placedBefore,
    });
    expect(decodes.mock.calls).toEqual([[restarred[1]!.file]]);
    const ofCap2 = replanned.files.filter((file) => file.item.key === 'cap-2').length;
    expect(ofCap2).toBeGreaterThan(0);
    expect(again).toMatchObject({ written: ofCap2, identical: plan.files.length - ofCap2 });
  }, 120_000);
});

describe('an export in its worker thread', () => {
  it('tells each finished file with its render key, and skips it the next time', async () => {
    const out = join(root, 'worker');
    const plan = await planExport({ items, recipes: [builtInRecipe('web')], date: '2026-11-23' });
    const placed: FileOutcome[] = [];
    await runExportInWorker({
      acceptWarnings: ACCEPT_ALL,
      plan,
      destination: out,
      onFile: (outcome) => placed.push(outcome),
    });
    expect(placed.map((outcome) => outcome.status)).toEqual(plan.files.map(() => 'written'));
    expect(placed.every((outcome) => /^[0-9a-f]{64}$/.test(outcome.renderKey ?? ''))).toBe(true);
    const again: FileOutcome[] = [];
    const report = await runExportInWorker({
      acceptWarnings: ACCEPT_ALL,
      plan,
      destination: out,
      placedBefore: asPlaced(placed),
      onFile: (outcome) => again.push(outcome),
    });
    expect(report).toMatchObject({ written: 0, identical: plan.files.length });
    const keys = (outcomes: FileOutcome[]) => outcomes.map((outcome) => outcome.renderKey).sort();
    expect(keys(again)).toEqual(keys(placed));
  }, 120_000);
});
