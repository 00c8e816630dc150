import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewFilter, ReviewView } from '../../../src-main/shared/models.ts';
import { type CatalogBatch, finishedCatalogBatch } from '../../support/catalog-batch.ts';
import { type CoreHarness, callCore, refusalOf } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';

// Colour labels (Lightroom's 6 to 9) through review:decide, on a real batch made by the embedded sandbox and
// its real SQLite file: committed at once, apart from the flag and the stars, counted and filtered, undone
// with the rest of a step, refused outside the closed set.

let h: CoreHarness;
let batchId: string;
let made: CatalogBatch | undefined;

beforeAll(async () => {
  made = await finishedCatalogBatch({
    name: 'Labels',
    products: ['hat', 'tote'],
    shoot: { ...QUICK_SHOOT, shots: 4 },
  });
  ({ h, batchId } = made);
}, 60_000);
afterAll(() => made?.close());

const get = (filter?: ReviewFilter): Promise<ReviewView> =>
  callCore(h.core, 'review:get', { batchId, ...(filter ? { filter } : {}) });

/** These decision rows in the order of their results' ids, as the file gives them. */
function byAsset<Row extends { asset_id: number }>(rows: Row[]): Row[] {
  return [...rows].sort((a, b) => a.asset_id - b.asset_id);
}

/** The decision rows as another connection reads them from the file. */
function storedDecisions(): unknown[] {
  const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
  try {
    return db.prepare('SELECT asset_id, flag, stars, label FROM review_decisions ORDER BY asset_id').all();
  } finally {
    db.close();
  }
}

describe('colour labels', () => {
  it('are none at first, then committed at once, apart from the flag and the stars', async () => {
    const [hat1, hat2, , , tote1] = (await get()).items;
    expect((await get()).items.every((item) => item.label === null)).toBe(true);
    await callCore(h.core, 'review:decide', { batchId, resultIds: [hat1!.id], change: { flag: 'picked' } });
    const labelled = await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat1!.id, hat2!.id],
      change: { label: 'red' },
    });
    expect(labelled.items.map((item) => [item.flag, item.label, item.reviewed])).toEqual([
      ['picked', 'red', true],
      // A label alone is not a review: the flag and the stars say that.
      [null, 'red', false],
    ]);
    await callCore(h.core, 'review:decide', { batchId, resultIds: [tote1!.id], change: { label: 'blue' } });
    expect(storedDecisions()).toEqual(
      byAsset([
        { asset_id: hat1!.id, flag: 'picked', stars: 0, label: 'red' },
        { asset_id: hat2!.id, flag: null, stars: 0, label: 'red' },
        { asset_id: tote1!.id, flag: null, stars: 0, label: 'blue' },
      ]),
    );

    const view = await get();
    expect(view.counts.byLabel).toEqual({ red: 2, blue: 1 });
    expect((await get({ label: 'red' })).items.map((item) => item.id)).toEqual([hat1!.id, hat2!.id]);
    expect((await get({ label: 'none' })).items).toHaveLength(5);
    expect((await get({ label: 'red', flag: 'none' })).items.map((item) => item.id)).toEqual([hat2!.id]);
  });

  it('are removed by null (a result with nothing else decided loses its row), and undone with their step', async () => {
    const [hat1, hat2, , , tote1] = (await get()).items;
    await callCore(h.core, 'review:decide', { batchId, resultIds: [hat2!.id], change: { label: null } });
    expect(storedDecisions()).toEqual(
      byAsset([
        { asset_id: hat1!.id, flag: 'picked', stars: 0, label: 'red' },
        { asset_id: tote1!.id, flag: null, stars: 0, label: 'blue' },
      ]),
    );
    const undone = await callCore(h.core, 'review:undo', { batchId });
    expect(undone.items.map((item) => [item.id, item.label])).toEqual([[hat2!.id, 'red']]);
    // A flag changed keeps the label.
    const rejected = await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat1!.id],
      change: { rejectReason: 'garbled_text' },
    });
    expect(rejected.items[0]).toMatchObject({ flag: 'rejected', label: 'red' });
  });

  it('refuses a colour outside the set, changing nothing', async () => {
    const before = storedDecisions();
    const [hat1] = (await get()).items;
    const refusal = await refusalOf(h.core, 'review:decide', {
      batchId,
      resultIds: [hat1!.id],
      change: { label: 'purple' },
    });
    expect(refusal.code).toBe('bad_request');
    expect(storedDecisions()).toEqual(before);
  });
});
