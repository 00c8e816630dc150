import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { renderShots } from '../src-main/sandbox/render/shots.ts';
import { SHOOT_STYLES, type ShootStyle } from '../src-main/sandbox/rules.ts';

// The pictures New batch's style picker shows: one shot of a bundled example product per style, rendered by
// the sandbox's own renderer (issue 14, point 9), so a designer sees what a style does before paying for it.
// Made once and committed (`npm run style-samples`); test/unit/renderer/style-samples.test.ts checks that
// every style has one and that they are what this script makes.

export const SAMPLES_DIR = resolve(import.meta.dirname, '../src-renderer/src/assets/styles');
const PRODUCT = resolve(import.meta.dirname, '../resources/examples/cap-red/solidus_cap_red_1.png');
/** Wide as a swatch in the picker (about 70 CSS px) at 2x. */
export const SAMPLE_SIZE = { width: 160, height: 96 };

export async function styleSample(style: ShootStyle): Promise<Buffer> {
  const [shot] = await renderShots({
    productImages: [await readFile(PRODUCT)],
    style,
    aspectRatio: '1:1',
    quality: 'standard',
    shots: 1,
    seed: `style-sample-${style}`,
  });
  return sharp(shot!.image)
    .resize(SAMPLE_SIZE.width, SAMPLE_SIZE.height, { fit: 'cover', position: 'centre' })
    .webp({ quality: 70 })
    .toBuffer();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await mkdir(SAMPLES_DIR, { recursive: true });
  for (const style of SHOOT_STYLES) {
    await writeFile(join(SAMPLES_DIR, `${style}.webp`), await styleSample(style));
  }
  console.log(`${SHOOT_STYLES.length} style samples written to ${SAMPLES_DIR}`);
}
