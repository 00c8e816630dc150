import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import { jpeg } from '../../support/bad-inputs.ts';

// What a write cut by a kill -9 leaves in the ingest cache (a thumbnail's or a converted copy's `.part`)
// is swept by the next scan, and only that: a young `.part` may be another process's write under way, and
// the cache's whole files are kept.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-stale-parts-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

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
    const hours = (count: number) => count * 60 * 60_000;
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
