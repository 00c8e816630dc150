import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../src-main/core/ingest/limits.ts';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import type { IngestPlan, PlannedPhoto, Problem } from '../../../src-main/core/ingest/types.ts';
import { animatedGif, bmp, heicLike, jpeg, picture, pngHeaderOnly } from '../../support/bad-inputs.ts';

// The bad-input corpus: every kind of file a designer's folder holds, generated here, scanned by the real
// ingest (real files, real sharp), each with its expected outcome and reason.

let dir: string;
let corpus: string;
let cache: string;
let plan: IngestPlan;

/** A file whose header and ending are whole, with bytes of its image data overwritten. */
function scramble(whole: Buffer): Buffer {
  const scrambled = Buffer.from(whole);
  for (let at = 2000; at < whole.length - 2000; at += 97) scrambled[at] = 0xff;
  return scrambled;
}

const NON_UTF8 = Buffer.from([0x70, 0x68, 0x6f, 0x74, 0x6f, 0xff, 0xfe, 0x2e, 0x6a, 0x70, 0x67]); // photo\xff\xfe.jpg

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-corpus-'));
  corpus = join(dir, 'dropped');
  cache = join(dir, 'cache');
  const put = async (path: string, content: Buffer | string | Promise<Buffer>) => {
    await mkdir(join(corpus, path, '..'), { recursive: true });
    await writeFile(join(corpus, path), await content);
  };

  // Accepted as they are, or converted.
  await put('good/01-plain.jpg', jpeg(800, 600, 1));
  await put('good/02-png-named.jpg', picture(700, 700, 2).png().toBuffer());
  await put('good/03-webp.webp', picture(640, 800, 3).webp().toBuffer());
  await put('good/04-16bit.png', picture(600, 600, 4).toColourspace('rgb16').png().toBuffer());
  await put('good/05-cmyk.jpg', picture(600, 600, 5).toColourspace('cmyk').jpeg().toBuffer());
  await put('good/06-p3.jpg', picture(600, 600, 6).withIccProfile('p3').jpeg().toBuffer());
  await put('good/07-rotated.jpg', picture(900, 600, 7).jpeg().withMetadata({ orientation: 6 }).toBuffer());
  await put('good/08-alpha.png', picture(600, 600, 8).ensureAlpha(0.5).png().toBuffer());
  await put('formats/tiff.tif', picture(600, 600, 9).tiff().toBuffer());
  await put('formats/avif.avif', picture(600, 600, 10).avif().toBuffer());
  await put('formats/still.gif', picture(600, 600, 11).gif().toBuffer());
  await put(
    'formats/alpha16.png',
    picture(600, 600, 12).ensureAlpha(0.5).toColourspace('rgb16').png().toBuffer(),
  );
  await put('small/warn.jpg', jpeg(400, 400, 13));
  // A banner (6.7:1) is warned about; a tall bottle's 1:3 is a product photo's shape.
  await put('shape/banner.jpg', jpeg(4000, 600, 19));
  await put('shape/bottle.jpg', jpeg(600, 1800, 20));

  // Turned away, each for its own reason.
  await put('bad/empty.jpg', Buffer.alloc(0));
  await put('bad/text.jpg', 'This is not a photo, whatever its name says.\n');
  await put('bad/notes.txt', 'Shoot notes: hero first.\n');
  const whole = await jpeg(1600, 1200, 14);
  await put('bad/truncated.jpg', whole.subarray(0, Math.floor(whole.length / 2)));
  await put('bad/corrupt.jpg', scramble(whole));
  // Damaged files decoded at once: libvips' error message is shared by the whole process, so the reason
  // must come from each file's own bytes.
  for (let n = 1; n <= 6; n++) {
    const made = await jpeg(900, 700, 40 + n);
    await put(`damaged/cut-${n}.jpg`, made.subarray(0, Math.floor(made.length / 2)));
    await put(`damaged/scrambled-${n}.jpg`, scramble(made));
  }
  const png = await picture(700, 700, 50).png().toBuffer();
  await put('damaged/cut.png', png.subarray(0, Math.floor(png.length / 2)));
  await put('damaged/scrambled.png', scramble(png));
  const webp = await picture(700, 700, 51).webp().toBuffer();
  await put('damaged/cut.webp', webp.subarray(0, Math.floor(webp.length / 2)));
  await put('bad/tiny.jpg', jpeg(200, 200, 15));
  await put('bad/bomb.png', pngHeaderOnly(50_000, 50_000));
  await put('bad/huge.jpg', jpeg(600, 600, 16));
  await truncate(join(corpus, 'bad/huge.jpg'), MAX_FILE_BYTES + 1);
  await put('bad/animated.gif', animatedGif());
  await put(
    'bad/drawing.svg',
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="900" height="900"><rect width="9" height="9"/></svg>',
  );
  await put('bad/logo.png', '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="900"></svg>');
  await put('bad/brochure.pdf', '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n');
  await put('bad/iphone.heic', heicLike());
  await put('bad/scan.bmp', bmp());
  await symlink(join(corpus, 'bad', 'gone.jpg'), join(corpus, 'bad', 'broken-link.jpg'));

  // Junk beside a real photo.
  await put('junk/photo.jpg', jpeg(800, 800, 17));
  for (const name of ['.DS_Store', 'Thumbs.db', 'desktop.ini', '._photo.jpg', '.hidden.jpg']) {
    await put(`junk/${name}`, jpeg(600, 600, 18));
  }
  await put('junk/__MACOSX/._photo.jpg', 'resource fork');

  // Names, links and folders that trip up naive code.
  await mkdir(join(corpus, 'names'), { recursive: true });
  await writeFile(
    Buffer.concat([Buffer.from(join(corpus, 'names')), Buffer.from('/'), NON_UTF8]),
    await jpeg(700, 700, 19),
  );
  await put('names/📦 box.jpg', jpeg(700, 700, 20));
  await put('loop/photo.jpg', jpeg(700, 700, 21));
  await symlink(join(corpus, 'loop'), join(corpus, 'loop', 'again'));
  await symlink(join(corpus, 'self-link'), join(corpus, 'self-link'));
  await mkdir(join(corpus, 'empty-folder', 'nested-empty'), { recursive: true });
  await put('deep/a/b/c/d/e/photo.jpg', jpeg(700, 700, 22));

  // Too many photos, natural order, duplicates.
  for (let n = 1; n <= 12; n++) await put(`many/${n}.jpg`, jpeg(600, 600, 100 + n));
  const same = await jpeg(700, 700, 30);
  await put('dupes/a.jpg', same);
  await put('dupes/b.jpg', same);
  await put('dupes/c.jpg', jpeg(700, 700, 31));

  plan = await scanInputs([corpus], { cacheDir: cache });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function problem(file: string): Problem {
  const found = plan.problems.filter((p) => p.file === join(corpus, file));
  expect(found, `problems for ${file}: ${JSON.stringify(plan.problems)}`).toHaveLength(1);
  return found[0]!;
}

function product(path: string) {
  const found = plan.products.find((p) => p.path === path);
  expect(found, `product ${path} in ${plan.products.map((p) => p.path).join(', ')}`).toBeDefined();
  return found!;
}

function photo(path: string): PlannedPhoto {
  const file = join(corpus, path);
  const found = plan.products.flatMap((p) => p.photos).find((p) => p.file === file);
  expect(found, `photo ${path}`).toBeDefined();
  return found!;
}

describe('the bad-input corpus', () => {
  it.each([
    ['bad/empty.jpg', 'empty', 'error', /empty file \(0 bytes\)/],
    ['bad/text.jpg', 'not_an_image', 'error', /not an image: a text file/],
    ['bad/notes.txt', 'not_an_image', 'warning', /not an image: a text file/],
    ['bad/truncated.jpg', 'truncated', 'error', /^truncated: the JPEG data ends early$/],
    ['bad/corrupt.jpg', 'truncated', 'error', /^corrupt JPEG: the image data is damaged$/],
    ['bad/tiny.jpg', 'too_small', 'error', /too small: 200 x 200, the short side must be at least 256 px/],
    ['bad/bomb.png', 'pixel_limit', 'error', /50000 x 50000 is over the limit of 120 megapixels/],
    ['bad/huge.jpg', 'too_large', 'error', /too large: 40 MB, the limit is 40 MB/],
    ['bad/animated.gif', 'animated', 'error', /animated \(3 frames\)/],
    ['bad/drawing.svg', 'svg', 'error', /an SVG drawing/],
    ['bad/logo.png', 'svg', 'error', /an SVG drawing/],
    ['bad/brochure.pdf', 'not_an_image', 'warning', /a PDF document/],
    [
      'bad/iphone.heic',
      'unsupported_format',
      'error',
      /a HEIC\/HEIF photo that could not be decoded.*export it as JPEG/,
    ],
    ['bad/scan.bmp', 'unsupported_format', 'error', /a BMP file, which Adbatch cannot read/],
    ['bad/broken-link.jpg', 'broken_link', 'warning', /a broken link/],
  ])('%s: %s', (file, code, severity, reason) => {
    const found = problem(file);
    expect(found.code).toBe(code);
    expect(found.severity).toBe(severity);
    expect(found.reason).toMatch(reason);
  });

  it('tells a cut file from a damaged one by its bytes, whichever photos decode beside it', () => {
    for (let n = 1; n <= 6; n++) {
      expect(problem(`damaged/cut-${n}.jpg`).reason).toBe('truncated: the JPEG data ends early');
      expect(problem(`damaged/scrambled-${n}.jpg`).reason).toBe('corrupt JPEG: the image data is damaged');
    }
    expect(problem('damaged/cut.png').reason).toBe('truncated: the PNG data ends early');
    expect(problem('damaged/scrambled.png').reason).toBe('corrupt PNG: the image data is damaged');
    expect(problem('damaged/cut.webp').reason).toBe('truncated: the WebP data ends early');
  });

  it('makes no product of a folder whose every file was turned away', () => {
    expect(plan.products.some((p) => p.path === 'bad')).toBe(false);
  });

  it('takes JPEG, PNG and WebP as they are, by content whatever the extension', async () => {
    const plain = photo('good/01-plain.jpg');
    expect(plain).toMatchObject({ format: 'jpeg', width: 800, height: 600, converted: null });
    expect(plain.path).toBe(join(corpus, 'good/01-plain.jpg'));
    expect(photo('good/02-png-named.jpg')).toMatchObject({ format: 'png', converted: null });
    expect(photo('good/03-webp.webp')).toMatchObject({ format: 'webp', width: 640, height: 800 });
    const alpha = photo('good/08-alpha.png');
    expect(alpha.converted).toBeNull();
    expect((await sharp(alpha.path!).metadata()).hasAlpha).toBe(true);
  });

  it('converts 16-bit, CMYK, wide-gamut and sideways photos to upright 8-bit sRGB copies', async () => {
    const cases: Array<[string, RegExp]> = [
      ['good/04-16bit.png', /16-bit reduced to 8-bit/],
      ['good/05-cmyk.jpg', /CMYK converted to sRGB/],
      ['good/06-p3.jpg', /colour profile converted to sRGB/],
      ['good/07-rotated.jpg', /turned upright/],
    ];
    for (const [file, reason] of cases) {
      const converted = photo(file);
      expect(converted.converted, file).toMatch(reason);
      expect(converted.path, file).not.toBe(join(corpus, file));
      expect(converted.path!.startsWith(cache), file).toBe(true);
      const meta = await sharp(converted.path!).metadata();
      expect(meta.space, file).toBe('srgb');
      expect(meta.depth, file).toBe('uchar');
      expect(meta.orientation ?? 1, file).toBe(1);
      expect(meta.icc, file).toBeUndefined();
    }
    const rotated = photo('good/07-rotated.jpg');
    expect([rotated.width, rotated.height]).toEqual([600, 900]);
    const meta = await sharp(rotated.path!).metadata();
    expect([meta.width, meta.height]).toEqual([600, 900]);
  });

  it('converts TIFF, AVIF and a still GIF to JPEG, and keeps alpha as PNG', async () => {
    for (const file of ['formats/tiff.tif', 'formats/avif.avif', 'formats/still.gif']) {
      const converted = photo(file);
      expect(converted.converted, file).toMatch(/converted to JPEG/);
      expect((await sharp(converted.path!).metadata()).format, file).toBe('jpeg');
    }
    const alpha16 = photo('formats/alpha16.png');
    const meta = await sharp(alpha16.path!).metadata();
    expect(meta).toMatchObject({ format: 'png', hasAlpha: true, depth: 'uchar' });
  });

  it('accepts a photo under 512 px on the short side with a warning', () => {
    expect(photo('small/warn.jpg')).toMatchObject({ width: 400, height: 400 });
    expect(problem('small/warn.jpg')).toMatchObject({ code: 'small', severity: 'warning' });
  });

  it('accepts a photo far from a product photo’s shape with a warning, and a tall bottle quietly', () => {
    expect(photo('shape/banner.jpg')).toMatchObject({ width: 4000, height: 600 });
    expect(problem('shape/banner.jpg')).toMatchObject({
      code: 'odd_shape',
      severity: 'warning',
      reason:
        "odd shape: 4000 x 600 (7:1), not a product photo's (a banner or a long screenshot?); the service fits it into the shot's frame, where the product may come out small or cut",
    });
    expect(photo('shape/bottle.jpg')).toMatchObject({ width: 600, height: 1800 });
    expect(plan.problems.filter((p) => p.file === join(corpus, 'shape/bottle.jpg'))).toEqual([]);
  });

  it('skips system junk silently: not a product photo, not a problem', () => {
    expect(product('junk').photos.map((p) => basename(p.file))).toEqual(['photo.jpg']);
    const skipped = plan.skipped.map((s) => s.file.slice(corpus.length + 1));
    expect(skipped).toEqual(
      expect.arrayContaining([
        'junk/.DS_Store',
        'junk/Thumbs.db',
        'junk/desktop.ini',
        'junk/._photo.jpg',
        'junk/.hidden.jpg',
        'junk/__MACOSX',
      ]),
    );
    expect(plan.problems.filter((p) => p.file.includes('/junk/'))).toEqual([]);
  });

  it('reads a file whose name is not UTF-8 and sends it from a copy with a safe name', async () => {
    const names = product('names');
    expect(names.photos).toHaveLength(2);
    const odd = names.photos.find((p) => p.file.includes('\uFFFD'))!;
    expect(odd.path!.startsWith(cache)).toBe(true);
    expect((await sharp(odd.path!).metadata()).width).toBe(700);
    expect(photo('names/📦 box.jpg').path).toBe(join(corpus, 'names/📦 box.jpg'));
  });

  it('ends link loops, ignores empty folders and finds photos nested deep', () => {
    expect(product('loop').photos).toHaveLength(1);
    expect(plan.products.filter((p) => p.path.startsWith('loop'))).toHaveLength(1);
    expect(plan.skipped.map((s) => s.reason)).toEqual(
      expect.arrayContaining(['a link to a folder already read', 'a link that loops']),
    );
    expect(plan.products.some((p) => p.path.startsWith('empty-folder'))).toBe(false);
    expect(product(join('deep', 'a', 'b', 'c', 'd', 'e')).name).toBe('e');
  });

  it('keeps the first 8 photos in natural order, hero first, and says so', () => {
    const many = product('many');
    expect(many.photos.map((p) => basename(p.file))).toEqual([
      '1.jpg',
      '2.jpg',
      '3.jpg',
      '4.jpg',
      '5.jpg',
      '6.jpg',
      '7.jpg',
      '8.jpg',
    ]);
    expect(problem('many')).toMatchObject({ code: 'too_many_photos', severity: 'warning' });
    expect(problem('many').reason).toMatch(
      /12 photos: only the first 8 are used \(9\.jpg, 10\.jpg, 11\.jpg, 12\.jpg left out\)/,
    );
  });

  it('uses the same photo once in a product', () => {
    expect(product('dupes').photos.map((p) => basename(p.file))).toEqual(['a.jpg', 'c.jpg']);
    expect(problem('dupes/b.jpg')).toMatchObject({
      code: 'duplicate',
      reason: 'the same photo as a.jpg: used once',
    });
  });

  it('hashes every photo by content and thumbnails it in the cache', async () => {
    for (const planned of plan.products.flatMap((p) => p.photos)) {
      expect(planned.hash).toMatch(/^[0-9a-f]{64}$/);
      const thumb = await sharp(planned.thumbnail!).metadata();
      expect(thumb.format).toBe('jpeg');
      expect(Math.max(thumb.width!, thumb.height!)).toBeLessThanOrEqual(320);
    }
    expect(photo('dupes/a.jpg').hash).not.toBe(photo('dupes/c.jpg').hash);
  });

  it('gives the same plan on a second scan, from the cache', async () => {
    const again = await scanInputs([corpus], { cacheDir: cache });
    expect(again.products).toEqual(plan.products);
    expect(again.skipped).toEqual(plan.skipped);
    expect(again.problems.map(({ file, code, severity }) => ({ file, code, severity }))).toEqual(
      plan.problems.map(({ file, code, severity }) => ({ file, code, severity })),
    );
  });
});
