import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
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
});
