import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLogoFile } from '../../../../src-main/core/review/logo-files.ts';
import { picture, pngHeaderOnly } from '../../../support/bad-inputs.ts';

// A logo file chosen for the videos is checked before anything is spent on it, and each refusal says what
// is wrong with that file in words of its own: never libvips' message, which is one for the whole process
// and may be another image's.

let dir: string;
let logo: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-logo-'));
  logo = await picture(240, 120, 3).png().toBuffer();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('checkLogoFile', () => {
  it('takes a whole PNG, with the bytes it checked', async () => {
    const checked = await checkLogoFile(await fileOf('brand.png', logo));
    expect(checked.extension).toBe('.png');
    expect(checked.sha256).toBe(createHash('sha256').update(logo).digest('hex'));
  });

  it('refuses a PNG or a JPEG cut short in the same words', async () => {
    const jpeg = await picture(240, 120, 4).jpeg().toBuffer();
    for (const [name, bytes] of [
      ['cut.png', logo.subarray(0, Math.floor(logo.length * 0.6))],
      ['cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length * 0.6))],
    ] as const) {
      await expect(checkLogoFile(await fileOf(name, bytes))).rejects.toThrow(
        `The logo ${name} does not decode as an image: its data is damaged or cut short.`,
      );
    }
  });

  it('refuses a header that claims more pixels than a logo has, before decoding them', async () => {
    await expect(checkLogoFile(await fileOf('bomb.png', pngHeaderOnly(20_000, 20_000)))).rejects.toThrow(
      'The logo bomb.png is 20000×20000: a logo must be at most 40 million pixels.',
    );
  });

  it('refuses what is not an image, a logo too small to read, and a file that is not there or cannot be read', async () => {
    await expect(checkLogoFile(await fileOf('notes.png', 'a logo, honestly'))).rejects.toThrow(
      /^The logo notes\.png is not a PNG, JPEG or WebP image \(it is .+\)\.$/,
    );
    await expect(
      checkLogoFile(await fileOf('tiny.png', await picture(8, 8).png().toBuffer())),
    ).rejects.toThrow('The logo tiny.png is 8×8: a logo needs at least 16 pixels on each side.');
    await expect(checkLogoFile(join(dir, 'gone.png'))).rejects.toThrow(
      `The logo gone.png is not there (${join(dir, 'gone.png')}).`,
    );
    // A path through a file: the system's answer in words, not its code.
    const inFile = join(await fileOf('notes.txt', 'text'), 'logo.png');
    await expect(checkLogoFile(inFile)).rejects.toThrow(
      `The logo logo.png cannot be read: ${inFile} is not a folder: part of the path is a file. Choose a folder instead.`,
    );
  });
});
