import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { NewProduct } from '../queue/types.ts';

// Products from folders, the simple way: each folder holding images is a product, its photos in natural name
// order (2.jpg before 10.jpg), the first the hero, at most 8. A folder given directly that holds images is
// itself a product. The full ingest (content checks, nested trees, catalogs) replaces this.

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);
const MAX_PHOTOS = 8;

const natural = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function isPhoto(name: string): boolean {
  return !name.startsWith('.') && IMAGE_EXTENSIONS.has(extname(name).toLowerCase());
}

async function photosIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && isPhoto(entry.name))
    .map((entry) => entry.name)
    .sort(natural.compare)
    .map((name) => join(dir, name));
}

export interface FolderScan {
  products: NewProduct[];
  warnings: string[];
}

export async function productsFromFolders(folders: readonly string[]): Promise<FolderScan> {
  const products: NewProduct[] = [];
  const warnings: string[] = [];
  const names = new Set<string>();
  const uniqueName = (base: string) => {
    let name = base;
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    names.add(name.toLowerCase());
    return name;
  };
  const add = (dir: string, photos: string[]) => {
    if (photos.length > MAX_PHOTOS) {
      warnings.push(`${dir}: ${photos.length} photos, only the first ${MAX_PHOTOS} are used`);
    }
    products.push({
      name: uniqueName(basename(dir)),
      sourceDir: dir,
      photos: photos.slice(0, MAX_PHOTOS).map((path) => ({ path, url: null })),
    });
  };
  for (const folder of folders) {
    const dir = resolve(folder);
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) throw new Error(`${folder} is not a folder`);
    const own = await photosIn(dir);
    if (own.length > 0) add(dir, own);
    const children = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort(natural.compare);
    for (const child of children) {
      const photos = await photosIn(join(dir, child));
      if (photos.length > 0) add(join(dir, child), photos);
    }
  }
  return { products, warnings };
}
