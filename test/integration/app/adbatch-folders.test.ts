import { copyFile, cp, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src-main/core/create-core.ts';
import type { ExportDetail, ScanView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// What Adbatch wrote is never an input (issue 27, point 2), through the handler map: the harness's folder
// stands for ~/Pictures, holding the library (`library`, made by Adbatch for a real sandbox batch), the
// data folder (`data`), an export folder Adbatch made (`exports/delivery`), a folder of the designer's that
// an export went into beside their own product (`shared`), and the photos the batch was shot from
// (`products`). Dropping it once offered Adbatch's own results and thumbnails as products.

let h: CoreHarness;
let batchId: string;

async function untilExported(core: Core, id: string): Promise<ExportDetail> {
  for (;;) {
    const detail = await callCore(core, 'export:get', { id });
    if (detail.state !== 'running') return detail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function exportInto(destination: string, recipes = ['original']): Promise<void> {
  const { id } = await callCore(h.core, 'export:start', {
    scope: { batchIds: [batchId] },
    recipes,
    destination,
  });
  expect((await untilExported(h.core, id)).state).toBe('done');
}

/** The first image file in a folder (or the folders inside it), by path. */
async function firstImage(dir: string): Promise<string> {
  const names = (await readdir(dir, { recursive: true }))
    .filter((name) => /\.(png|jpe?g|webp)$/i.test(name))
    .sort();
  expect(names.length, dir).toBeGreaterThan(0);
  return join(dir, names[0]!);
}

const scan = (inputs: string[]) => callCore(h.core, 'ingest:scan', { inputs });
const offered = (plan: ScanView) => plan.products.map((product) => product.path).sort();
const adbatchLines = (plan: ScanView) =>
  plan.skippedFiles.filter((skipped) => skipped.adbatchFolder).sort((a, b) => (a.file < b.file ? -1 : 1));

beforeAll(async () => {
  h = await startCoreHarness();
  await makeProductFolders(join(h.dir, 'products'), 2);
  batchId = await finishedBatch(h.core, { inputs: [join(h.dir, 'products')], name: 'Spring' });
  const items = (await callCore(h.core, 'review:get', { batchId })).items;
  await pickResults(
    h.core,
    batchId,
    items.map((item) => item.id),
  );
  await exportInto(join(h.dir, 'exports', 'delivery'));
  await makeProductFolders(join(h.dir, 'shared'), 1);
  await rename(join(h.dir, 'shared', 'product-01'), join(h.dir, 'shared', 'new-product'));
  await exportInto(join(h.dir, 'shared'));
}, 180_000);
afterAll(async () => {
  await h?.close();
});

describe('a scan of the folder that holds the library', () => {
  it('passes over the library, the data folder and the exports, one line each, and offers the rest', async () => {
    const plan = await scan([h.dir]);
    expect(offered(plan)).toEqual([
      join('products', 'product-01'),
      join('products', 'product-02'),
      join('shared', 'new-product'),
    ]);
    expect(adbatchLines(plan)).toEqual([
      { file: join(h.dir, 'data'), reason: "Adbatch's own data folder", adbatchFolder: 'data' },
      {
        file: join(h.dir, 'exports', 'delivery'),
        reason: 'an export Adbatch wrote',
        adbatchFolder: 'export',
      },
      { file: join(h.dir, 'library'), reason: "Adbatch's own library", adbatchFolder: 'library' },
      // In a folder of the designer's, what the export placed is Adbatch's, and only that.
      { file: join(h.dir, 'shared', 'Original'), reason: 'an export Adbatch wrote', adbatchFolder: 'export' },
      ...['manifest.csv', 'manifest.json'].map((name) => ({
        file: join(h.dir, 'shared', name),
        reason: 'an export Adbatch wrote',
        adbatchFolder: 'export' as const,
      })),
    ]);
    expect(plan.problems).toEqual([]);
  });

  it('passes over one of those folders, or a folder or photo inside one, dropped itself', async () => {
    const library = join(h.dir, 'library');
    const plan = await scan([
      library,
      join(h.dir, 'exports', 'delivery', 'Original'),
      join(h.dir, 'products'),
    ]);
    expect(offered(plan)).toEqual(['product-01', 'product-02']);
    expect(adbatchLines(plan).map((line) => [line.file, line.adbatchFolder])).toEqual([
      [join(h.dir, 'exports', 'delivery', 'Original'), 'export'],
      [library, 'library'],
    ]);
  });

  it('knows a copy of a result or of an exported image by its bytes, wherever it was copied', async () => {
    const client = join(h.dir, 'client');
    await makeProductFolders(client, 1);
    const { resultsFolder } = await callCore(h.core, 'batches:get', { id: batchId });
    const thumbnail = await firstImage(join(resultsFolder, '001 product-01', 'thumbnails'));
    const shot = join(resultsFolder, '001 product-01', basename(thumbnail));
    // The web recipe's files are made anew (resized, re-encoded): their bytes are the export's alone.
    await exportInto(join(h.dir, 'exports', 'web'), ['web']);
    const exported = await firstImage(join(h.dir, 'exports', 'web'));
    // Picked shots copied in beside the designer's photo; a folder of copies alone; an exported image.
    await copyFile(shot, join(client, 'product-01', 'ai-shot.png'));
    await mkdir(join(client, 'picks'));
    await copyFile(thumbnail, join(client, 'picks', 'small.png'));
    await copyFile(exported, join(client, 'picks', 'final.png'));
    const plan = await scan([client]);
    expect(offered(plan)).toEqual(['product-01']);
    expect(plan.products[0]!.photos.map((photo) => basename(photo.file))).toEqual(['1.png']);
    expect(plan.dropped).toEqual([]);
    expect(plan.problems).toEqual([]);
    const lines = adbatchLines(plan);
    expect(lines.map((line) => [line.file, line.adbatchFolder])).toEqual([
      [join(client, 'picks', 'final.png'), 'export'],
      [join(client, 'picks', 'small.png'), 'results'],
      [join(client, 'product-01', 'ai-shot.png'), 'results'],
    ]);
    expect(lines[0]!.reason).toBe(`a copy of an image Adbatch exported (${exported})`);
    expect(lines[1]!.reason).toBe('a thumbnail Adbatch downloaded (product-01, in batch “Spring”)');
    expect(lines[2]!.reason).toBe('a result Adbatch downloaded (product-01, in batch “Spring”)');
    // The same photo edited since (other bytes) is the designer's own.
    await writeFile(join(client, 'product-01', 'ai-shot.png'), await sharp(shot).rotate(90).png().toBuffer());
    const edited = await scan([join(client, 'product-01')]);
    expect(edited.products[0]!.photos.map((photo) => basename(photo.file)).sort()).toEqual([
      '1.png',
      'ai-shot.png',
    ]);
  });

  it('knows a library moved elsewhere by its mark, and its batch folders by theirs', async () => {
    const moved = join(h.dir, 'moved');
    await mkdir(moved);
    await rename(join(h.dir, 'library'), join(moved, 'old library'));
    await makeProductFolders(join(moved, 'new'), 1);
    const plan = await scan([moved]);
    expect(offered(plan)).toEqual([join('new', 'product-01')]);
    expect(adbatchLines(plan)).toEqual([
      { file: join(moved, 'old library'), reason: "Adbatch's own library", adbatchFolder: 'library' },
    ]);
    // A batch's folder taken out of the library, and a product's folder of results inside it.
    const { resultsFolder } = await callCore(h.core, 'batches:get', { id: batchId });
    await rename(join(moved, 'old library', basename(resultsFolder)), join(moved, 'results'));
    const results = await scan([join(moved, 'results'), join(moved, 'results', '001 product-01')]);
    expect(results.products).toEqual([]);
    expect(adbatchLines(results).map((line) => [line.file, line.adbatchFolder])).toEqual([
      [join(moved, 'results'), 'batch'],
      [join(moved, 'results', '001 product-01'), 'batch'],
    ]);
    // A product's folder of results taken out of its batch's folder alone, and a copy of its thumbnails.
    await rename(join(moved, 'results', '001 product-01'), join(moved, 'product-01 shots'));
    await cp(join(moved, 'results', '002 product-02', 'thumbnails'), join(moved, 'small'), {
      recursive: true,
    });
    const alone = await scan([moved]);
    expect(offered(alone)).toEqual([join('new', 'product-01')]);
    expect(adbatchLines(alone)).toEqual(
      [
        [join(moved, 'old library'), "Adbatch's own library", 'library'],
        [join(moved, 'product-01 shots'), "Adbatch's own results (a product's folder)", 'results'],
        [join(moved, 'results'), "Adbatch's own results (a batch's folder)", 'batch'],
        [join(moved, 'small'), "Adbatch's own results (a product's folder)", 'results'],
      ].map(([file, reason, adbatchFolder]) => ({ file, reason, adbatchFolder })),
    );
  });
});
