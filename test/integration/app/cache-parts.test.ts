import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import { keepLogoFile } from '../../../src-main/core/review/logo-files.ts';
import { ResultPreviews } from '../../../src-main/core/review/previews.ts';
import { jpeg } from '../../support/bad-inputs.ts';

// What a write cut by a kill -9 leaves in a cache is swept the first time the next process uses it, and
// only that: a young `.part` may be another process's write under way, and the cache's whole files are
// kept. The ingest cache (a thumbnail's or a converted copy's `.part`) by the next scan; Review's previews
// (a preview's or a video's poster frame's) before the next preview is made; the logos' copies before the
// next copy is kept.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-stale-parts-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hours = (count: number) => count * 60 * 60_000;

async function fileAt(path: string, ageMs: number): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, 'cut short');
  const at = new Date(Date.now() - ageMs);
  await utimes(path, at, at);
  return path;
}

describe('a scan', () => {
  it('sweeps the cache of the .part files a killed scan left, keeping young ones and whole files', async () => {
    const cache = join(dir, 'cache');
    const stale = [
      await fileAt(join(cache, 'thumbnails', 'ab', 'ab12.jpg.0a1b2c3d4e5f.part'), hours(2)),
      await fileAt(join(cache, 'prepared', 'cd', 'cd34.png.5f4e3d2c1b0a.part'), hours(30)),
    ];
    const young = await fileAt(join(cache, 'thumbnails', 'ab', 'ab56.jpg.112233445566.part'), 5_000);
    const whole = await fileAt(join(cache, 'thumbnails', 'ab', 'ab78.jpg'), hours(48));
    const folder = join(dir, 'hat');
    await mkdir(folder);
    await writeFile(join(folder, 'hat-1.jpg'), await jpeg(640, 480, 1));

    const plan = await scanInputs([folder], { cacheDir: cache });

    expect(plan.products.map((product) => product.photos.length)).toEqual([1]);
    for (const file of stale) expect(existsSync(file), file).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(whole)).toBe(true);
  }, 60_000);
});

describe("Review's previews", () => {
  it('are swept of the .part files a killed write left before the next is made, keeping young ones and whole files', async () => {
    const cache = join(dir, 'previews');
    const stale = [
      await fileAt(join(cache, 'grid', 'ab', `${'ab'.repeat(32)}.jpg.0a1b2c3d4e5f.part`), hours(2)),
      await fileAt(join(cache, 'screen', 'cd', `${'cd'.repeat(32)}.jpg.5f4e3d2c1b0a.part`), hours(30)),
      await fileAt(join(cache, 'frames', `${'ef'.repeat(32)}.png.a1b2c3d4e5f6.part`), hours(3)),
    ];
    const young = await fileAt(join(cache, 'grid', 'ab', `${'ab'.repeat(32)}.jpg.112233445566.part`), 5_000);
    const whole = await fileAt(join(cache, 'grid', 'cd', `${'cd'.repeat(32)}.jpg`), hours(48));
    const shot = join(dir, 'shot.jpg');
    await writeFile(shot, await jpeg(640, 480, 2));

    const previews = new ResultPreviews(cache, { warn: (line) => expect.fail(line) });
    expect(await previews.ensure(shot, '12'.repeat(32))).toBe(true);

    for (const file of stale) expect(existsSync(file), file).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(whole)).toBe(true);
  }, 60_000);
});

describe("the logos' copies", () => {
  it('are swept of the .part files a killed write left before the next copy is kept', async () => {
    const dataDir = join(dir, 'data');
    const stale = await fileAt(
      join(dataDir, 'logos', 'ab', `${'ab'.repeat(32)}.png.0a1b2c3d4e5f.part`),
      hours(2),
    );
    const young = await fileAt(
      join(dataDir, 'logos', 'ab', `${'ab'.repeat(32)}.png.112233445566.part`),
      5_000,
    );
    const logo = join(dir, 'logo.jpg');
    await writeFile(logo, await jpeg(64, 64, 3));

    const copy = await keepLogoFile(dataDir, logo);

    expect(existsSync(copy)).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(young)).toBe(true);
  });
});
