import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type Cutout, cutOut } from '../../../../src-main/sandbox/render/cutout.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

const capRed = readFileSync(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.capRed));

function alphaAt(cutout: Cutout, x: number, y: number): number {
  return cutout.data[(y * cutout.width + x) * 4 + 3]!;
}

function corners(cutout: Cutout): number[] {
  const right = cutout.width - 1;
  const bottom = cutout.height - 1;
  return [
    alphaAt(cutout, 0, 0),
    alphaAt(cutout, right, 0),
    alphaAt(cutout, 0, bottom),
    alphaAt(cutout, right, bottom),
  ];
}

describe('cutOut', () => {
  it('removes the white studio background of a flat photo and keeps the product opaque', async () => {
    const onWhite = await sharp(capRed).flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer();
    const cutout = await cutOut(onWhite, 768);
    expect(cutout.data.length).toBe(cutout.width * cutout.height * 4);
    expect(corners(cutout)).toEqual([0, 0, 0, 0]);
    expect(alphaAt(cutout, cutout.width >> 1, cutout.height >> 1)).toBe(255);
    // Trimmed to the cap: the 1360x1190 photo is mostly background.
    expect(cutout.width).toBeLessThan(768 * 0.6);
  });

  it("keeps the product's own whites that do not touch the border (the cap's logo)", async () => {
    const onWhite = await sharp(capRed).flatten({ background: '#ffffff' }).png().toBuffer();
    const cutout = await cutOut(onWhite, 768);
    let opaqueWhite = 0;
    for (let i = 0; i < cutout.data.length; i += 4) {
      const { data } = cutout;
      if (data[i + 3] === 255 && Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 235) opaqueWhite++;
    }
    expect(opaqueWhite).toBeGreaterThan(1000);
  });

  it('keeps white enclosed by the subject and drops white connected to the border', async () => {
    const ring =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#fff"/>' +
      '<circle cx="100" cy="100" r="60" fill="none" stroke="#203040" stroke-width="20"/></svg>';
    const cutout = await cutOut(await sharp(Buffer.from(ring)).png().toBuffer(), 768);
    expect(corners(cutout)).toEqual([0, 0, 0, 0]);
    expect(alphaAt(cutout, cutout.width >> 1, cutout.height >> 1)).toBe(255);
  });

  it('honours the transparency of an RGBA product photo', async () => {
    const cutout = await cutOut(capRed, 512);
    expect(Math.max(cutout.width, cutout.height)).toBeLessThanOrEqual(512);
    expect(corners(cutout)).toEqual([0, 0, 0, 0]);
    expect(alphaAt(cutout, cutout.width >> 1, cutout.height >> 1)).toBe(255);
  });

  it('trusts the alpha of a transparent PNG, so a white product on it survives', async () => {
    const whiteBox =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">' +
      '<rect x="50" y="50" width="100" height="100" fill="#fff"/></svg>';
    const cutout = await cutOut(await sharp(Buffer.from(whiteBox)).png().toBuffer(), 768);
    expect(corners(cutout)).toEqual([0, 0, 0, 0]);
    expect(alphaAt(cutout, cutout.width >> 1, cutout.height >> 1)).toBe(255);
    expect(cutout.width).toBeGreaterThan(100);
  });

  it('rejects bytes that are not an image', async () => {
    await expect(cutOut(Buffer.from('plain text, not a picture'), 768)).rejects.toThrow();
  });
});
