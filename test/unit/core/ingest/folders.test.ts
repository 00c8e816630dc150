import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { productsFromFolders } from '../../../../src-main/core/ingest/folders.ts';
import { fixturePhotos, makeProductFolders } from '../../../support/product-folders.ts';

let dir: string;
let source: string;

beforeAll(async () => {
  source = (await fixturePhotos())[0]!;
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-folders-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A folder holding real photos under these names. */
async function folder(path: string, names: string[]): Promise<string> {
  await mkdir(path, { recursive: true });
  for (const name of names) await copyFile(source, join(path, name));
  return path;
}

const names = (photos: Array<{ path: string | null }>) => photos.map((photo) => basename(photo.path!));

describe('productsFromFolders', () => {
  it('makes a product of each product folder, in natural order, hero first', async () => {
    const dirs = await makeProductFolders(dir, 3, 2);
    await folder(join(dir, 'product-10'), ['1.png']);
    const scan = await productsFromFolders([dir]);
    expect(scan.warnings).toEqual([]);
    expect(scan.products.map((product) => product.name)).toEqual([
      'product-01',
      'product-02',
      'product-03',
      'product-10',
    ]);
    expect(scan.products[0]).toEqual({
      name: 'product-01',
      sourceDir: dirs[0],
      photos: [
        { path: join(dirs[0]!, '1.png'), url: null },
        { path: join(dirs[0]!, '2.png'), url: null },
      ],
    });
  });

  it('orders photos naturally: 2.png before 10.png', async () => {
    const product = await folder(join(dir, 'Mug'), ['10.png', '2.png', '1.png', 'shot 11.jpg', 'shot 9.jpg']);
    const scan = await productsFromFolders([dir]);
    expect(scan.products).toHaveLength(1);
    expect(scan.products[0]!.sourceDir).toBe(product);
    expect(names(scan.products[0]!.photos)).toEqual([
      '1.png',
      '2.png',
      '10.png',
      'shot 9.jpg',
      'shot 11.jpg',
    ]);
  });

  it('orders product folders naturally too', async () => {
    for (const name of ['Item 10', 'Item 2', 'Item 1']) await folder(join(dir, name), ['1.png']);
    const scan = await productsFromFolders([dir]);
    expect(scan.products.map((product) => product.name)).toEqual(['Item 1', 'Item 2', 'Item 10']);
  });

  it('ignores hidden files and folders, non-images and empty folders', async () => {
    await folder(join(dir, 'Cap'), ['1.png', '.hidden.png', '._1.png', 'photo.WEBP', 'photo.JPEG']);
    await writeFile(join(dir, 'Cap', '.DS_Store'), 'x');
    await writeFile(join(dir, 'Cap', 'notes.txt'), 'x');
    await writeFile(join(dir, 'Cap', 'anim.gif'), 'x');
    await folder(join(dir, '.thumbnails'), ['1.png']);
    await mkdir(join(dir, 'Empty'));
    await folder(join(dir, 'Docs'), []);
    await writeFile(join(dir, 'Docs', 'readme.md'), 'x');
    const scan = await productsFromFolders([dir]);
    expect(scan.products.map((product) => product.name)).toEqual(['Cap']);
    expect(names(scan.products[0]!.photos)).toEqual(['1.png', 'photo.JPEG', 'photo.WEBP']);
  });

  it('takes a folder given directly that holds images as a product itself', async () => {
    const product = await folder(join(dir, 'Tote bag'), ['1.png', '2.png']);
    const scan = await productsFromFolders([product]);
    expect(scan.products).toEqual([
      {
        name: 'Tote bag',
        sourceDir: product,
        photos: [
          { path: join(product, '1.png'), url: null },
          { path: join(product, '2.png'), url: null },
        ],
      },
    ]);
  });

  it('uses the first 8 photos of a folder with more, and says so', async () => {
    const many = Array.from({ length: 11 }, (_, index) => `${index + 1}.png`);
    const product = await folder(join(dir, 'Hoodie'), many);
    const scan = await productsFromFolders([dir]);
    expect(names(scan.products[0]!.photos)).toEqual(many.slice(0, 8));
    expect(scan.warnings).toHaveLength(1);
    expect(scan.warnings[0]).toContain(product);
    expect(scan.warnings[0]).toMatch(/11 photos, only the first 8/);
  });

  it('keeps product names apart when two folders share one', async () => {
    await folder(join(dir, 'a', 'Shirt'), ['1.png']);
    await folder(join(dir, 'b', 'Shirt'), ['1.png']);
    await folder(join(dir, 'c', 'Shirt'), ['1.png']);
    const scan = await productsFromFolders([join(dir, 'a'), join(dir, 'b'), join(dir, 'c')]);
    expect(scan.products.map((product) => product.name)).toEqual(['Shirt', 'Shirt (2)', 'Shirt (3)']);
    expect(scan.products.map((product) => product.sourceDir)).toEqual([
      join(dir, 'a', 'Shirt'),
      join(dir, 'b', 'Shirt'),
      join(dir, 'c', 'Shirt'),
    ]);
  });

  // BUG (folders.ts add): the " (n)" suffix is not checked against names already taken, so a folder really named
  // "Shirt (2)" and a second "Shirt" end up as two products both named "Shirt (2)".
  it('never gives two products the same name', async () => {
    await folder(join(dir, 'a', 'Shirt'), ['1.png']);
    await folder(join(dir, 'a', 'Shirt (2)'), ['1.png']);
    await folder(join(dir, 'b', 'Shirt'), ['1.png']);
    const scan = await productsFromFolders([join(dir, 'a'), join(dir, 'b')]);
    const productNames = scan.products.map((product) => product.name);
    expect(new Set(productNames).size).toBe(productNames.length);
  });

  it('refuses a missing folder, or a file, with a clear error', async () => {
    const missing = join(dir, 'no such folder');
    await expect(productsFromFolders([missing])).rejects.toThrow(`${missing} is not a folder`);
    const file = join(dir, 'photo.png');
    await copyFile(source, file);
    await expect(productsFromFolders([file])).rejects.toThrow(`${file} is not a folder`);
  });

  it('finds no product in a folder without photos', async () => {
    await mkdir(join(dir, 'empty'));
    expect(await productsFromFolders([join(dir, 'empty')])).toEqual({ products: [], warnings: [] });
  });
});
