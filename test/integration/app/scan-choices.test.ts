import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  startCoreHarness,
  untilFinished,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// What the designer chose on New batch's products outlives a rescan of the same folders (issue 14, point 10):
// the hero stays the hero, and a product left out stays out, of the quote and of the batch the sandbox makes.

let h: CoreHarness;

beforeAll(async () => {
  h = await startCoreHarness();
}, 60_000);

afterAll(() => h?.close());

const folders = (...names: string[]) => names.map((name) => join(PRODUCT_FIXTURES_DIR, name));

describe('New batch choices across scans', () => {
  it('has no last settings before a first batch', async () => {
    expect(await callCore(h.core, 'batches:lastSettings')).toBeNull();
  });

  it('keeps a chosen hero when the same folder is scanned again', async () => {
    const first = await callCore(h.core, 'ingest:scan', { inputs: folders('cap-black') });
    expect(first.products[0]!.photos.map((photo) => basename(photo.file))[0]).toBe('solidus_cap_black_1.png');
    await callCore(h.core, 'ingest:hero', { scanId: first.scanId, product: 'cap-black', photo: 2 });
    const again = await callCore(h.core, 'ingest:scan', { inputs: folders('cap-black') });
    expect(again.products[0]!.photos.map((photo) => basename(photo.file))).toEqual([
      'solidus_cap_black_3.png',
      'solidus_cap_black_1.png',
      'solidus_cap_black_2.png',
    ]);
  });

  it('leaves a product out of the quote and the batch, in this scan and the next, until taken back', async () => {
    const scan = await callCore(h.core, 'ingest:scan', { inputs: folders('hat', 'tote') });
    const request = {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
    };
    const both = await callCore(h.core, 'batches:quote', request);
    expect(both.products.map((row) => row.product)).toEqual(['hat', 'tote']);

    await callCore(h.core, 'ingest:leaveOut', { scanId: scan.scanId, product: 'tote', out: true });
    const one = await callCore(h.core, 'batches:quote', request);
    expect(one.products.map((row) => row.product)).toEqual(['hat']);
    expect(one.credits).toBe(both.products[0]!.credits);

    const rescan = await callCore(h.core, 'ingest:scan', { inputs: folders('hat', 'tote') });
    expect(rescan.products.map((product) => [product.name, product.leftOut])).toEqual([
      ['hat', false],
      ['tote', true],
    ]);
    const created = await callCore(h.core, 'batches:create', {
      ...request,
      scanId: rescan.scanId,
      name: 'Hat only',
    });
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    try {
      const products = db.prepare('SELECT name FROM products WHERE batch_id = ?').all(created.id);
      expect(products).toEqual([{ name: 'hat' }]);
    } finally {
      db.close();
    }

    // The settings it started with are what the next New batch starts from.
    expect(await callCore(h.core, 'batches:lastSettings')).toEqual({
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      videoWhen: null,
    });

    await callCore(h.core, 'ingest:leaveOut', { scanId: rescan.scanId, product: 'tote', out: false });
    const back = await callCore(h.core, 'batches:quote', { ...request, scanId: rescan.scanId });
    expect(back.products.map((row) => row.product)).toEqual(['hat', 'tote']);
  }, 60_000);
  it('knows a product left out as Review scopes it, by its folder, whatever name the scan gave it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'adbatch-same-product-'));
    try {
      // Two folders of the same name: one scan names them "product-01" and "product-01 (2)".
      const [autumn] = await makeProductFolders(join(root, 'autumn'), 1);
      const [winter] = await makeProductFolders(join(root, 'winter'), 1);
      const both = await callCore(h.core, 'ingest:scan', { inputs: [autumn!, winter!] });
      expect(both.products.map((product) => product.name)).toEqual(['product-01', 'product-01 (2)']);
      const shot = await finishedBatch(h.core, { inputs: [autumn!, winter!], name: 'Both' });

      // Review's scope of the winter folder's product: its key is the folder, not the name.
      const scoped = await callCore(h.core, 'review:get', { product: winter! });
      expect(scoped.product).toMatchObject({ label: winter, name: 'product-01 (2)' });
      expect(scoped.product!.batches.map((batch) => batch.id)).toEqual([shot]);

      // Scanned alone it is "product-01": left out under that name, it is the same product when named
      // "product-01 (2)" in the next scan, and the autumn folder's "product-01" is not left out.
      const alone = await callCore(h.core, 'ingest:scan', { inputs: [winter!] });
      expect(alone.products.map((product) => product.name)).toEqual(['product-01']);
      await callCore(h.core, 'ingest:leaveOut', { scanId: alone.scanId, product: 'product-01', out: true });
      const again = await callCore(h.core, 'ingest:scan', { inputs: [autumn!, winter!] });
      expect(again.products.map((product) => [product.name, product.leftOut])).toEqual([
        ['product-01', false],
        ['product-01 (2)', true],
      ]);

      // The batch of that scan shoots the autumn folder's product only, as Review's scopes then show.
      const next = await callCore(h.core, 'batches:create', {
        scanId: again.scanId,
        accountId: 'sandbox',
        shoot: QUICK_SHOOT,
        video: null,
        includeDone: true,
        name: 'Autumn again',
      });
      await untilFinished(h.core, next.id);
      const autumnScope = await callCore(h.core, 'review:get', { product: autumn! });
      expect(autumnScope.product!.batches.map((batch) => batch.id).sort()).toEqual([shot, next.id].sort());
      const winterScope = await callCore(h.core, 'review:get', { product: winter! });
      expect(winterScope.product!.batches.map((batch) => batch.id)).toEqual([shot]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
