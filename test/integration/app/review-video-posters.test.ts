import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoToolPath } from '../../../src-main/core/export/video-tools.ts';
import {
  GRID_EDGE,
  previewPath,
  previewsDir,
  ResultPreviews,
  SCREEN_EDGE,
} from '../../../src-main/core/review/previews.ts';
import { extractPosterFrame } from '../../../src-main/core/review/video-frame.ts';
import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { type CatalogBatch, finishedCatalogBatch } from '../../support/catalog-batch.ts';
import { type CoreHarness, callCore } from '../../support/core-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';
import { until } from '../../support/until.ts';

// A video's poster frame, on a real sandbox batch with videos: taken by the bundled ffmpeg when the video is
// downloaded, sized as a shot's previews are, served by review:get for the grid and the loupe and by
// batches:get for the batch page, made again when missing; a video with no frame gets none (the grid then
// says "Video" and its length), never the video's own URL in an image.

let h: CoreHarness;
let made: CatalogBatch | undefined;
let batchId: string;
let dir: string;
let videos: Array<{ file: string; sha256: string }>;

/** What sharp sees in a preview: its size, and how far its pixels are from one flat colour. */
async function looked(file: string) {
  const image = sharp(file);
  const [metadata, stats] = await Promise.all([image.metadata(), image.stats()]);
  const spread = Math.max(...stats.channels.slice(0, 3).map((channel) => channel.max - channel.min));
  return { format: metadata.format, width: metadata.width, height: metadata.height, spread };
}

beforeAll(async () => {
  made = await finishedCatalogBatch({ name: 'Posters', products: ['hat', 'tote'], video: QUICK_VIDEO });
  ({ h, batchId } = made);
  dir = previewsDir(join(h.dir, 'data'));
  const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
  videos = db
    .prepare<[string], { file: string; sha256: string }>(
      `SELECT b.library_dir || '/' || a.path AS file, a.sha256 FROM assets a JOIN jobs j ON j.id = a.job_id
       JOIN batches b ON b.id = j.batch_id WHERE j.batch_id = ? AND a.kind = 'video' AND a.state = 'done'`,
    )
    .all(batchId);
  db.close();
}, 90_000);
afterAll(() => made?.close());

const served = (url: string | null) => h.core.files.resolve((url ?? '').replace('/files/', ''));
const videoItems = async (): Promise<ReviewItemView[]> =>
  (await callCore(h.core, 'review:get', { batchId })).items.filter((item) => item.kind === 'video');

describe('video poster frames', () => {
  it('are made for every downloaded video without anyone asking: real frames, not blank', async () => {
    expect(videos).toHaveLength(2);
    await until(() =>
      videos.every(
        (video) =>
          existsSync(previewPath(dir, 'grid', video.sha256)) &&
          existsSync(previewPath(dir, 'screen', video.sha256)),
      ),
    );
    for (const video of videos) {
      const grid = await looked(previewPath(dir, 'grid', video.sha256));
      const screen = await looked(previewPath(dir, 'screen', video.sha256));
      expect(grid.format).toBe('jpeg');
      expect(Math.max(grid.width, grid.height)).toBeLessThanOrEqual(GRID_EDGE);
      expect(Math.max(screen.width, screen.height)).toBeLessThanOrEqual(SCREEN_EDGE);
      expect(Math.min(grid.width, grid.height)).toBeGreaterThan(0);
      // A picture of the product, not a flat (black) frame.
      expect(grid.spread).toBeGreaterThan(40);
    }
    // The frame taken for them is not kept: the previews are.
    expect(
      existsSync(join(dir, 'frames'))
        ? videos.some((video) => existsSync(join(dir, 'frames', `${video.sha256}.png`)))
        : false,
    ).toBe(false);
    expect(h.logs.filter((line) => line.includes('No preview'))).toEqual([]);
  });

  it('are what review:get serves for a video (grid and poster) and batches:get for the batch page', async () => {
    const items = await videoItems();
    expect(items).toHaveLength(2);
    for (const item of items) {
      const sha256 = videos.find((video) => video.file === served(item.url))!.sha256;
      expect(served(item.gridUrl)).toBe(previewPath(dir, 'grid', sha256));
      expect(served(item.posterUrl)).toBe(previewPath(dir, 'screen', sha256));
      expect(item.screenUrl).toBeNull();
      expect(item.durationSeconds).toBe(QUICK_VIDEO.duration);
    }
    const batch = await callCore(h.core, 'batches:get', { id: batchId });
    const results = batch.items.flatMap((product) => product.jobs.flatMap((job) => job.results));
    const posters = results
      .filter((result) => result.kind === 'video')
      .map((result) => served(result.posterUrl));
    expect(posters.sort()).toEqual(videos.map((video) => previewPath(dir, 'grid', video.sha256)).sort());
    expect(
      results.filter((result) => result.kind !== 'video').every((result) => result.posterUrl === null),
    ).toBe(true);
  });

  it('are made again when missing, with no image meanwhile rather than the video in one', async () => {
    const [first] = videos;
    await rm(previewPath(dir, 'grid', first!.sha256));
    const missing = (await videoItems()).find((item) => served(item.url) === first!.file)!;
    // The sandbox sends no thumbnail of a video: nothing to show until the frame is back.
    expect([missing.gridUrl, missing.posterUrl]).toEqual([null, null]);
    await until(async () => (await videoItems()).every((item) => item.gridUrl !== null));
    expect((await looked(previewPath(dir, 'grid', first!.sha256))).spread).toBeGreaterThan(40);
  });

  it('fall back to the first frame of a video shorter than the poster time, and fail loudly on no video', async () => {
    const short = join(h.dir, 'short.mp4');
    await promisify(execFile)(videoToolPath('ffmpeg'), [
      ...[
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x180:rate=10:duration=0.5',
      ],
      ...['-pix_fmt', 'yuv420p', short],
    ]);
    const frame = join(h.dir, 'short-frame.png');
    await extractPosterFrame(short, frame);
    const taken = await looked(frame);
    expect([taken.format, taken.width, taken.height]).toEqual(['png', 320, 180]);
    expect(taken.spread).toBeGreaterThan(40);

    const warnings: string[] = [];
    const previews = new ResultPreviews(join(h.dir, 'broken-posters'), {
      warn: (line) => warnings.push(line),
    });
    const broken = join(h.dir, 'not-a-video.mp4');
    await writeFile(broken, 'this is no MP4');
    expect(await previews.ensure(broken, 'cd'.repeat(32), 'video')).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(broken);
    expect(warnings[0]).toContain('ffmpeg');
  });
});
