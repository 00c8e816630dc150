import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { renderShots } from '../../src-main/sandbox/render/shots.ts';
import { resourceFile } from '../../src-main/sandbox/resources.ts';

// Results to export, made on disk for the export tests from the sample product photos in
// /work/shared/fixtures/products (Solidus sample data; its license is in LICENSE-solidus.md there):
// a photo carrying GPS in its EXIF, a shot rendered by the sandbox as the service would, products on pure
// white (one filling the frame, one small in it), a transparent cut-out, and a video (the sandbox's
// placeholder: a real 3 s H.264 movie, small enough to be made for a channel in a second or two).

export const PRODUCTS = '/work/shared/fixtures/products';

export const GPS_EXIF = {
  IFD0: { Make: 'Adbatch test camera', Copyright: 'fixture' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 24/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 21/1 3/1',
  },
};

export interface Sources {
  gpsPhoto: string;
  aiShot: string;
  fillsWhite: string;
  smallOnWhite: string;
  cutout: string;
  video: string;
}

export async function makeSources(dir: string): Promise<Sources> {
  await mkdir(dir, { recursive: true });
  const cap = await readFile(join(PRODUCTS, 'cap-black/solidus_cap_black_1.png'));
  const hat = await readFile(join(PRODUCTS, 'hat/solidus_hat.png'));
  const gpsPhoto = join(dir, 'phone photo.jpg');
  await sharp(cap)
    .resize(1200, 800, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .withExif(GPS_EXIF)
    .toFile(gpsPhoto);
  const [shot] = await renderShots({
    productImages: [hat],
    style: 'classic',
    aspectRatio: '1:1',
    quality: 'standard',
    shots: 1,
    seed: 'export-test',
  });
  const aiShot = join(dir, 'shot-1.jpg');
  await writeFile(aiShot, shot!.image);
  const onWhite = async (name: string, width: number, height: number) => {
    const path = join(dir, name);
    const product = await sharp({ create: { width, height, channels: 3, background: '#203040' } })
      .png()
      .toBuffer();
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#ffffff' } })
      .composite([
        { input: product, left: Math.round((1200 - width) / 2), top: Math.round((900 - height) / 2) },
      ])
      .png()
      .toFile(path);
    return path;
  };
  const fillsWhite = await onWhite('fills.png', 1100, 800);
  const smallOnWhite = await onWhite('small.png', 500, 300);
  const cutout = join(dir, 'cutout.png');
  const circle = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><circle cx="600" cy="400" r="300" fill="#d02020"/></svg>',
  );
  await sharp(circle).png().toFile(cutout);
  const video = join(dir, 'video.mp4');
  await copyFile(resourceFile(join('sandbox', 'fallback.mp4')), video);
  return { gpsPhoto, aiShot, fillsWhite, smallOnWhite, cutout, video };
}
