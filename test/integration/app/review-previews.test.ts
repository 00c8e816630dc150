import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GRID_EDGE,
  type PreviewSize,
  previewPath,
  previewsDir,
  ResultPreviews,
  SCREEN_EDGE,
} from '../../../src-main/core/review/previews.ts';
import type { ReviewView } from '../../../src-main/shared/models.ts';
import { type CatalogBatch, finishedCatalogBatch } from '../../support/catalog-batch.ts';
import { type CoreHarness, callCore } from '../../support/core-harness.ts';
import { until } from '../../support/until.ts';

// Review's previews on a real sandbox batch: each downloaded shot gets a grid and a screen preview in the
// data folder's cache, keyed by its sha256; review:get serves them through the file gateway, falls back to
// the original while one is missing, and makes the missing one again.

let h: CoreHarness;
let made: CatalogBatch | undefined;
let batchId: string;
let dir: string;
/** The batch's downloaded shots, as the engine recorded them. */
let shots: Array<{ file: string; sha256: string }>;

/** The long edge a preview of this original must have: its edge, or the original's when it is smaller. */
async function expectPreviewOf(original: string, preview: string, size: PreviewSize) {
  const source = await sharp(original).metadata();
  const made = await sharp(preview).metadata();
  const edge = Math.min(size === 'grid' ? GRID_EDGE : SCREEN_EDGE, Math.max(source.width, source.height));
  // The sandbox's shots are larger than a grid cell: the grid preview is a real reduction.
  if (size === 'grid') expect(Math.max(source.width, source.height)).toBeGreaterThan(GRID_EDGE);
  expect(made.format).toBe('jpeg');
  expect(Math.max(made.width, made.height)).toBe(edge);
  // The same shape, to a pixel of rounding.
  expect(Math.abs(made.width / made.height - source.width / source.height)).toBeLessThan(
    2 / Math.min(made.width, made.height),
  );
}

beforeAll(async () => {
  made = await finishedCatalogBatch({ name: 'Previews', products: ['hat', 'tote'] });
  ({ h, batchId } = made);
  dir = previewsDir(join(h.dir, 'data'));
  const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
  shots = db
    .prepare<[string], { file: string; sha256: string }>(
      `SELECT b.library_dir || '/' || a.path AS file, a.sha256 FROM assets a JOIN jobs j ON j.id = a.job_id
       JOIN batches b ON b.id = j.batch_id WHERE j.batch_id = ? AND a.kind = 'image' AND a.state = 'done'`,
    )
    .all(batchId);
  db.close();
}, 60_000);
afterAll(() => made?.close());

const get = (): Promise<ReviewView> => callCore(h.core, 'review:get', { batchId });
const served = (url: string | null) => h.core.files.resolve((url ?? '').replace('/files/', ''));

describe('review previews', () => {
  it('are made for every downloaded shot, keyed by its sha256, without anyone asking', async () => {
    expect(shots).toHaveLength(2);
    // Nothing has called review:get yet: these come from the download path.
    // The previews of the downloads.
    await until(() =>
      shots.every(
        (shot) =>
          existsSync(previewPath(dir, 'grid', shot.sha256)) &&
          existsSync(previewPath(dir, 'screen', shot.sha256)),
      ),
    );
    for (const shot of shots) {
      await expectPreviewOf(shot.file, previewPath(dir, 'grid', shot.sha256), 'grid');
      await expectPreviewOf(shot.file, previewPath(dir, 'screen', shot.sha256), 'screen');
    }
    expect(h.logs.filter((line) => line.includes('No preview'))).toEqual([]);
  });

  it('are what review:get serves for the grid and the screen', async () => {
    const view = await get();
    expect(view.items).toHaveLength(2);
    for (const item of view.items) {
      const original = served(item.url)!;
      const sha256 = shots.find((shot) => shot.file === original)!.sha256;
      expect(served(item.gridUrl)).toBe(previewPath(dir, 'grid', sha256));
      expect(served(item.screenUrl)).toBe(previewPath(dir, 'screen', sha256));
      await expectPreviewOf(original, served(item.gridUrl)!, 'grid');
      await expectPreviewOf(original, served(item.screenUrl)!, 'screen');
    }
  });

  it('fall back to the original while missing, and are made again', async () => {
    const [first, second] = shots;
    await rm(previewPath(dir, 'grid', first!.sha256));
    await rm(previewPath(dir, 'screen', second!.sha256));
    const missing = (view: ReviewView) =>
      view.items.filter((item) => [first!.file, second!.file].includes(served(item.url)!));

    const before = missing(await get());
    expect(before).toHaveLength(2);
    for (const item of before) expect([item.gridUrl, item.screenUrl]).toEqual([item.url, item.url]);

    // The previews made again.
    await until(async () =>
      missing(await get()).every((item) => item.gridUrl !== item.url && item.screenUrl !== item.url),
    );
    await expectPreviewOf(first!.file, previewPath(dir, 'grid', first!.sha256), 'grid');
    await expectPreviewOf(second!.file, previewPath(dir, 'screen', second!.sha256), 'screen');
  });

  it('that cannot be made are logged once, and the original is shown instead', async () => {
    const warnings: string[] = [];
    const previews = new ResultPreviews(join(h.dir, 'broken-cache'), { warn: (line) => warnings.push(line) });
    const broken = join(h.dir, 'not-an-image.jpg');
    await writeFile(broken, 'this is no JPEG');
    expect(await previews.ensure(broken, 'ab'.repeat(32))).toBe(false);
    expect(await previews.rebuild(broken, 'ab'.repeat(32))).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(broken);
    expect(previews.presence()('ab'.repeat(32))).toBe(false);
  });
});
