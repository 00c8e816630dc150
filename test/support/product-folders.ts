import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRODUCT_FIXTURES_DIR } from './static-server.ts';

/** Every fixture photo, in a stable order. */
export async function fixturePhotos(): Promise<string[]> {
  const photos: string[] = [];
  for (const folder of (await readdir(PRODUCT_FIXTURES_DIR, { withFileTypes: true })).filter((entry) =>
    entry.isDirectory(),
  )) {
    const dir = join(PRODUCT_FIXTURES_DIR, folder.name);
    for (const file of (await readdir(dir)).sort()) photos.push(join(dir, file));
  }
  return photos;
}

/** Makes `count` product folders under `root` (product-01, ...), each with real photos from the fixtures. */
export async function makeProductFolders(
  root: string,
  count: number,
  photosPerProduct = 1,
): Promise<string[]> {
  const photos = await fixturePhotos();
  const dirs: string[] = [];
  for (let index = 0; index < count; index++) {
    const dir = join(root, `product-${String(index + 1).padStart(2, '0')}`);
    await mkdir(dir, { recursive: true });
    for (let photo = 0; photo < photosPerProduct; photo++) {
      const source = photos[(index * photosPerProduct + photo) % photos.length]!;
      await copyFile(source, join(dir, `${photo + 1}.png`));
    }
    dirs.push(dir);
  }
  return dirs;
}
