import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderModelPreset } from '../../../../src-main/sandbox/render/model-presets.ts';
import {
  frameSize,
  InputImageError,
  type RenderedShot,
  renderShots,
  type ShotRenderInput,
} from '../../../../src-main/sandbox/render/shots.ts';
import {
  QUALITIES,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  type ShootStyle,
} from '../../../../src-main/sandbox/rules.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

const capRed = readFileSync(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.capRed));
const mug = readFileSync(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.mug));

function shoot(overrides: Partial<ShotRenderInput> = {}): ShotRenderInput {
  return {
    productImages: [capRed],
    style: 'classic',
    aspectRatio: '1:1',
    quality: 'standard',
    shots: 1,
    seed: 'job_test',
    ...overrides,
  };
}

async function renderOne(overrides: Partial<ShotRenderInput> = {}): Promise<RenderedShot> {
  const [shot] = await renderShots(shoot(overrides));
  return shot!;
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Mean RGB of a region given as fractions of the image. */
async function meanColour(image: Buffer, region: Region): Promise<[number, number, number]> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  // Not .stats(): it describes the whole input and ignores extract().
  const data = await sharp(image)
    .extract({
      left: Math.round(region.left * width),
      top: Math.round(region.top * height),
      width: Math.round(region.width * width),
      height: Math.round(region.height * height),
    })
    .raw()
    .toBuffer();
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i++) sums[i % 3]! += data[i]!;
  const pixels = data.length / 3;
  return [sums[0]! / pixels, sums[1]! / pixels, sums[2]! / pixels];
}

const TOP_LEFT: Region = { left: 0, top: 0, width: 0.08, height: 0.08 };
const WHOLE: Region = { left: 0, top: 0, width: 1, height: 1 };

describe('frameSize', () => {
  it.each(QUALITIES.flatMap((quality) => SHOOT_ASPECT_RATIOS.map((ratio) => [quality, ratio] as const)))(
    '%s %s keeps the ratio with the long side at the quality size',
    (quality, ratio) => {
      const long = { standard: 1024, pro: 2048, '4k': 4096 }[quality];
      const [w, h] = ratio.split(':').map(Number) as [number, number];
      const frame = frameSize(ratio, long);
      expect(Math.max(frame.width, frame.height)).toBe(long);
      expect(Math.abs(frame.width / frame.height - w / h)).toBeLessThan(0.01);
    },
  );
});

describe('renderShots', () => {
  it.each([
    ['standard', '1:1', 1024, 1024],
    ['standard', '16:9', 1024, 576],
    ['pro', '9:16', 1152, 2048],
    ['4k', '21:9', 4096, 1755],
  ] as const)('renders %s %s as a %ix%i JPEG', async (quality, aspectRatio, width, height) => {
    const shot = await renderOne({ quality, aspectRatio });
    expect(shot.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const meta = await sharp(shot.image).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width,
      height,
    });
    expect({ width: shot.width, height: shot.height }).toEqual({ width, height });
  });

  it('makes a JPEG thumbnail with a 320 px long side', async () => {
    const shot = await renderOne({ aspectRatio: '3:4' });
    const meta = await sharp(shot.thumbnail).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    expect(meta.width).toBe(240);
  });

  it('renders the same pixels for the same seed, and varies across shots and seeds', async () => {
    const first = await renderShots(shoot({ shots: 4, productImages: [capRed, mug] }));
    const again = await renderShots(shoot({ shots: 4, productImages: [capRed, mug] }));
    const other = await renderShots(shoot({ shots: 4, productImages: [capRed, mug], seed: 'job_other' }));
    expect(first.map((s) => s.image)).toEqual(again.map((s) => s.image));
    expect(new Set(first.map((s) => s.image.toString('base64'))).size).toBe(4);
    expect(other[0]!.image.equals(first[0]!.image)).toBe(false);
  });

  it('gives every style a backdrop of its own', async () => {
    const shots = await Promise.all(SHOOT_STYLES.map((style) => renderOne({ style })));
    // A coarse 8x8 fingerprint per style; every pair must differ clearly, not by noise.
    const prints = await Promise.all(
      shots.map((shot) => sharp(shot.image).resize(8, 8, { fit: 'fill' }).raw().toBuffer()),
    );
    for (let a = 0; a < prints.length; a++) {
      for (let b = a + 1; b < prints.length; b++) {
        let sum = 0;
        for (let i = 0; i < prints[a]!.length; i++) sum += Math.abs(prints[a]![i]! - prints[b]![i]!);
        const meanDifference = sum / prints[a]!.length;
        expect(meanDifference, `${SHOOT_STYLES[a]} vs ${SHOOT_STYLES[b]}`).toBeGreaterThan(12);
      }
    }
  });

  it.each<[ShootStyle, Region, (rgb: [number, number, number]) => boolean]>([
    [
      'classic',
      TOP_LEFT,
      ([r, g, b]) => Math.min(r, g, b) > 150 && Math.max(r, g, b) - Math.min(r, g, b) < 25,
    ],
    ['minimal', TOP_LEFT, ([r, g, b]) => Math.min(r, g, b) > 220],
    ['luxury', TOP_LEFT, ([r, g, b]) => Math.max(r, g, b) < 60],
    ['loud_luxury', WHOLE, ([r, g]) => r > g + 60],
    ['element', WHOLE, ([r, , b]) => b > r + 40],
    ['magazine', { left: 0, top: 0, width: 1, height: 0.02 }, ([r, g, b]) => Math.max(r, g, b) < 60],
    ['lifestyle', { left: 0, top: 0.92, width: 1, height: 0.08 }, ([r, , b]) => r > b + 40],
  ])('draws %s recognisably', async (style, region, looksRight) => {
    const shot = await renderOne({ style });
    const colour = await meanColour(shot.image, region);
    expect(looksRight(colour), `mean colour ${colour.map(Math.round).join(',')}`).toBe(true);
  });

  it('uses background_color as the base of studio styles only', async () => {
    const blue = await renderOne({ style: 'classic', backgroundColor: '#2050c0' });
    const [r, , b] = await meanColour(blue.image, TOP_LEFT);
    expect(b).toBeGreaterThan(r + 40);
    const magazine = await renderOne({ style: 'magazine' });
    const magazineBlue = await renderOne({ style: 'magazine', backgroundColor: '#2050c0' });
    expect(magazineBlue.image.equals(magazine.image)).toBe(true);
  });

  it('puts the cut-out product on the backdrop, not its white photo background', async () => {
    const onWhite = await sharp(capRed).flatten({ background: '#ffffff' }).png().toBuffer();
    const shot = await renderOne({ style: 'luxury', productImages: [onWhite] });
    // On the dark luxury set only the cap's logo, the sparkles and the mark are white; an uncut
    // photo would add a white rectangle of about a fifth of the frame.
    const { data } = await sharp(shot.image).raw().toBuffer({ resolveWithObject: true });
    let whitePixels = 0;
    for (let i = 0; i < data.length; i += 3)
      if (Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 225) whitePixels++;
    expect(whitePixels / (data.length / 3)).toBeLessThan(0.05);
    const [r, g] = await meanColour(shot.image, { left: 0.35, top: 0.6, width: 0.3, height: 0.05 });
    expect(r).toBeGreaterThan(g + 80);
  });

  describe('with a model', () => {
    let model: Buffer;
    beforeAll(async () => {
      model = await renderModelPreset('model_ben');
    });

    it('composites the model beside the product', async () => {
      const alone = await renderOne();
      const withModel = await renderOne({ modelImage: model });
      expect(withModel.width).toBe(1024);
      expect(withModel.image.equals(alone.image)).toBe(false);
      // model_ben wears navy: the bottom of the frame on one side turns blue.
      const left = await meanColour(withModel.image, { left: 0.1, top: 0.9, width: 0.25, height: 0.08 });
      const right = await meanColour(withModel.image, { left: 0.65, top: 0.9, width: 0.25, height: 0.08 });
      const blueness = ([r, , b]: [number, number, number]) => b - r;
      expect(Math.max(blueness(left), blueness(right))).toBeGreaterThan(30);
    });

    it('rejects a model image that is not an image', async () => {
      await expect(renderShots(shoot({ modelImage: Buffer.from('nope') }))).rejects.toThrow(/model image/);
    });
  });

  it('rejects an input that is not an image, naming it', async () => {
    const render = renderShots(shoot({ productImages: [capRed, Buffer.from('<html>not found</html>')] }));
    await expect(render).rejects.toBeInstanceOf(InputImageError);
    await expect(render).rejects.toThrow('product image 2 is not a decodable image');
  });
});
