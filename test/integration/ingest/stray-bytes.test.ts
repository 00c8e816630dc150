import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import { jpeg, picture } from '../../support/bad-inputs.ts';

// Camera JPEGs with stray bytes between markers (libjpeg warns "N extraneous bytes before marker"; every
// viewer shows them whole) are accepted, and damaged ones turned away, however many photos decode beside
// them. libvips' error message is one for the process: read while other photos decoded, a stray-bytes
// photo's failure said "Warning treated as error" about one time in ten, and the photo was refused as
// corrupt. Three scans of one folder, each with an empty cache so that every photo is decoded again.

const STRAY = 8;
const SCANS = 3;

let dir: string;

/** The JPEG with `count` bytes of padding written before its start-of-scan marker, as some cameras do. */
function withStrayBytes(whole: Buffer, count = 8): Buffer {
  const startOfScan = whole.indexOf(Buffer.from([0xff, 0xda]));
  return Buffer.concat([
    whole.subarray(0, startOfScan),
    Buffer.alloc(count, 0x2a),
    whole.subarray(startOfScan),
  ]);
}

/** A whole JPEG with bytes of its image data overwritten. */
function scrambled(whole: Buffer): Buffer {
  const copy = Buffer.from(whole);
  for (let at = 2000; at < whole.length - 2000; at += 97) copy[at] = 0xff;
  return copy;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-stray-'));
  const folder = join(dir, 'camera');
  await mkdir(folder);
  for (let n = 1; n <= STRAY; n++) {
    await writeFile(join(folder, `stray-${n}.jpg`), withStrayBytes(await jpeg(700, 700, 70 + n)));
    await writeFile(join(folder, `good-${n}.jpg`), await jpeg(900, 900, 80 + n));
  }
  // A CMYK photo is converted: its copy is decoded as tolerantly as its thumbnail.
  const cmyk = await picture(700, 700, 90).toColourspace('cmyk').jpeg().toBuffer();
  await writeFile(join(folder, 'stray-cmyk.jpg'), withStrayBytes(cmyk));
  for (let n = 1; n <= 3; n++) {
    await writeFile(join(folder, `damaged-${n}.jpg`), scrambled(await jpeg(900, 700, 95 + n)));
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('stray bytes between a JPEG’s markers', () => {
  it('are let through and damaged data is not, whatever decodes beside them', async () => {
    for (let scan = 1; scan <= SCANS; scan++) {
      const plan = await scanInputs([join(dir, 'camera')], { cacheDir: join(dir, `cache-${scan}`) });
      const refused = plan.problems
        .filter((problem) => problem.severity === 'error')
        .map((problem) => `${basename(problem.file.toString())}: ${problem.reason}`)
        .sort();
      expect(refused, `scan ${scan}`).toEqual([
        'damaged-1.jpg: corrupt JPEG: the image data is damaged',
        'damaged-2.jpg: corrupt JPEG: the image data is damaged',
        'damaged-3.jpg: corrupt JPEG: the image data is damaged',
      ]);
      const photos = plan.products.flatMap((product) => product.photos);
      expect(photos.filter((photo) => basename(photo.file.toString()).startsWith('stray-'))).toHaveLength(
        STRAY + 1,
      );
      const cmyk = photos.find((photo) => basename(photo.file.toString()) === 'stray-cmyk.jpg')!;
      expect(cmyk.converted).toMatch(/CMYK/);
    }
  }, 120_000);
});
