import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SAMPLE_SIZE, SAMPLES_DIR, styleSample } from '../../../scripts/style-samples.ts';
import { SHOOT_STYLES } from '../../../src-main/sandbox/rules.ts';

// The style picker's samples: one for every style of the catalog, each what the sandbox's renderer makes of
// the bundled example today (a renderer changed without `npm run style-samples` shows here).

describe('style samples', () => {
  it.each(SHOOT_STYLES)('%s has its sample, as the sandbox renders it', async (style) => {
    const committed = await readFile(join(SAMPLES_DIR, `${style}.webp`));
    const metadata = await sharp(committed).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual([
      'webp',
      SAMPLE_SIZE.width,
      SAMPLE_SIZE.height,
    ]);
    const [now, then] = await Promise.all(
      [await styleSample(style), committed].map((image) => sharp(image).raw().toBuffer()),
    );
    let difference = 0;
    for (let i = 0; i < now!.length; i++) difference += Math.abs(now![i]! - then![i]!);
    // The same render encoded again: equal but for the encoder's rounding.
    expect(difference / now!.length).toBeLessThan(2);
  });
});
