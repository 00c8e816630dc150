import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MODEL_PRESETS, renderModelPreset } from '../../../../src-main/sandbox/render/model-presets.ts';

describe('model presets', () => {
  it('renders each as a distinct 768x1024 JPEG on white', async () => {
    const images = await Promise.all(MODEL_PRESETS.map((p) => renderModelPreset(p.id)));
    for (const image of images) {
      const meta = await sharp(image).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: 'jpeg',
        width: 768,
        height: 1024,
      });
      const corner = await sharp(image).extract({ left: 0, top: 0, width: 40, height: 40 }).raw().toBuffer();
      expect(Math.min(...corner)).toBeGreaterThan(245);
    }
    expect(new Set(images.map((image) => image.toString('base64'))).size).toBe(6);
  });

  it('rejects an unknown id', async () => {
    await expect(renderModelPreset('model_nobody')).rejects.toThrow('unknown model preset: model_nobody');
  });
});
