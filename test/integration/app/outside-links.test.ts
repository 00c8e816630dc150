import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanView } from '../../../src-main/shared/models.ts';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// Links say where they lead (issue 28, point 4), through the handler map on real links: a photo reached
// through a link that leaves the dropped folder (to the file, or to a folder) is taken with a warning naming
// where it really is, carried on the product's photo; one that leads into Adbatch's own folders (the
// library by path, a batch's folder by its mark, the data folder) is passed over in one line that says so;
// a link that stays inside the dropped folder is said nothing of.

let h: CoreHarness;
let plan: ScanView;
let elsewhere: string;
let library: string;

beforeAll(async () => {
  h = await startCoreHarness();
  library = (await callCore(h.core, 'settings:get')).libraryDir;
  elsewhere = join(h.dir, 'elsewhere');
  const [outsideProduct] = await makeProductFolders(elsewhere, 1, 2);
  const [ownPhotos] = await makeProductFolders(join(h.dir, 'own'), 1, 3);
  // A batch's folder of results in a moved library, known by its mark only.
  const batchProduct = join(h.dir, 'moved library', 'Spring (abc123)', '001 cap');
  await mkdir(batchProduct, { recursive: true });
  await writeFile(join(h.dir, 'moved library', 'Spring (abc123)', '.adbatch-batch'), '{"app":"Adbatch"}\n');
  await copyFile(join(ownPhotos!, '1.png'), join(batchProduct, 'shot-1.png'));
  await mkdir(join(library, 'results'), { recursive: true });
  await copyFile(join(ownPhotos!, '2.png'), join(library, 'results', 'shot-2.png'));

  const dropped = join(h.dir, 'dropped');
  await mkdir(join(dropped, 'shirt'), { recursive: true });
  await mkdir(join(dropped, 'inside'), { recursive: true });
  await copyFile(join(ownPhotos!, '2.png'), join(dropped, 'shirt', 'front.png'));
  await copyFile(join(ownPhotos!, '3.png'), join(dropped, 'inside', 'a.png'));
  // A file link and a folder link out of the dropped folder.
  await symlink(join(outsideProduct!, '1.png'), join(dropped, 'shirt', 'back.png'));
  await symlink(outsideProduct!, join(dropped, 'linked'));
  // Links into Adbatch's own folders: a product folder inside a marked batch's, a photo in the library,
  // the data folder.
  await symlink(batchProduct, join(dropped, 'cap'));
  await symlink(join(library, 'results', 'shot-2.png'), join(dropped, 'shirt', 'side.png'));
  await symlink(join(h.dir, 'data'), join(dropped, 'data'));
  // A link that stays inside.
  await symlink(join(dropped, 'inside', 'a.png'), join(dropped, 'shirt', 'again.png'));
  plan = await callCore(h.core, 'ingest:scan', { inputs: [dropped] });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('a scan through links', () => {
  it('takes a photo a link brings from outside, saying where it really is, on its product', async () => {
    const shirt = plan.products.find((product) => product.name === 'shirt')!;
    const back = shirt.photos.find((photo) => photo.file.endsWith('back.png'))!;
    expect(back.realPath).toBe(join(elsewhere, 'product-01', '1.png'));
    expect(shirt.photos.find((photo) => photo.file.endsWith('front.png'))!.realPath).toBeNull();
    expect(plan.problems).toContainEqual({
      file: join(h.dir, 'dropped', 'shirt', 'back.png'),
      reason: `reached through a link that leaves the dropped folder: the photo really is ${join(elsewhere, 'product-01', '1.png')}`,
      severity: 'warning',
      code: 'outside_link',
    });
  });

  it('takes the photos of a folder a link brings from outside, each saying where it really is', async () => {
    const linked = plan.products.find((product) => product.name === 'linked')!;
    expect(linked.photos.map((photo) => photo.realPath).sort()).toEqual([
      join(elsewhere, 'product-01', '1.png'),
      join(elsewhere, 'product-01', '2.png'),
    ]);
    expect(plan.problems.filter((problem) => problem.code === 'outside_link')).toHaveLength(3);
  });

  it('passes over a link into Adbatch’s own folders, saying where it leads', async () => {
    const lines = plan.skippedFiles.filter((skipped) => skipped.adbatchFolder);
    expect(lines).toEqual(
      expect.arrayContaining([
        {
          file: join(h.dir, 'dropped', 'cap'),
          reason: `a link into Adbatch's own results (a batch's folder): it leads to ${join(h.dir, 'moved library', 'Spring (abc123)', '001 cap')}`,
          adbatchFolder: 'batch',
        },
        {
          file: join(h.dir, 'dropped', 'shirt', 'side.png'),
          reason: `a link into Adbatch's own library: it leads to ${join(library, 'results', 'shot-2.png')}`,
          adbatchFolder: 'library',
        },
        expect.objectContaining({ file: join(h.dir, 'dropped', 'data'), adbatchFolder: 'data' }),
      ]),
    );
    const files = plan.products.flatMap((product) => product.photos.map((photo) => photo.file));
    expect(files.some((file) => /side\.png|[/\\]cap[/\\]/.test(file))).toBe(false);
  });

  it('says nothing of a link that stays inside the dropped folder', async () => {
    const again = plan.products
      .flatMap((product) => product.photos)
      .find((photo) => photo.file.endsWith('again.png'));
    expect(again?.realPath ?? null).toBeNull();
    expect(
      plan.problems.some((problem) => problem.file.endsWith('again.png') && problem.code === 'outside_link'),
    ).toBe(false);
  });
});
