import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  watermarkBox,
  watermarkOverlay,
  watermarkSvg,
} from '../../../../src-main/sandbox/render/watermark.ts';

async function changedPixels(
  before: Buffer,
  after: Buffer,
  width: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
) {
  let changed = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * width + x) * 3;
      if (Math.abs(before[i]! - after[i]!) + Math.abs(before[i + 1]! - after[i + 1]!) > 10) changed++;
    }
  }
  return changed;
}

describe('watermark', () => {
  it('marks the bottom-right corner and leaves the rest alone', async () => {
    const [width, height] = [800, 600];
    const plain = sharp({ create: { width, height, channels: 3, background: '#7f8c8d' } });
    const before = await plain.clone().raw().toBuffer();
    const after = await plain
      .clone()
      .composite([watermarkOverlay(width, height)])
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(await changedPixels(before, after, width, 500, 500, 800, 600)).toBeGreaterThan(500);
    expect(await changedPixels(before, after, width, 0, 0, 500, 500)).toBe(0);
  });

  it('scales with the image and stays inside it', () => {
    const small = watermarkBox(1024, 576);
    const large = watermarkBox(4096, 2304);
    expect(large.height).toBeGreaterThan(small.height * 3);
    for (const [box, width, height] of [
      [small, 1024, 576],
      [large, 4096, 2304],
      [watermarkBox(320, 180), 320, 180],
    ] as const) {
      expect(box.left).toBeGreaterThan(0);
      expect(box.top).toBeGreaterThan(0);
      expect(box.left + box.width).toBeLessThan(width);
      expect(box.top + box.height).toBeLessThan(height);
    }
  });

  it('is an SVG of exactly the requested size, drawn without text', async () => {
    const svg = watermarkSvg(300, 64);
    expect(svg).not.toContain('<text');
    const meta = await sharp(Buffer.from(svg)).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 300, height: 64 });
  });
});
