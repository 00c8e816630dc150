import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewFilter, ReviewView } from '../../../src-main/shared/models.ts';
import { type CatalogBatch, finishedCatalogBatch } from '../../support/catalog-batch.ts';
import { adbatch } from '../../support/cli.ts';
import { type CoreHarness, callCore, refusalOf } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';

// Review through the handler map, on a real batch made by the embedded sandbox: the results with their
// product, kind and style; flags, stars and reasons committed as they are made; filters that combine;
// counts over the whole batch; "keep this one"; undo and redo.

let h: CoreHarness;
let batchId: string;
let made: CatalogBatch | undefined;

beforeAll(async () => {
  made = await finishedCatalogBatch({
    name: 'Review',
    products: ['hat', 'tote'],
    shoot: { ...QUICK_SHOOT, shots: 4 },
  });
  ({ h, batchId } = made);
}, 60_000);
afterAll(() => made?.close());

const get = (filter?: ReviewFilter): Promise<ReviewView> =>
  callCore(h.core, 'review:get', { batchId, ...(filter ? { filter } : {}) });

describe('review', () => {
  it('lists every shot of the batch in product order, unreviewed, with counts', async () => {
    const view = await get();
    expect(view.items.map((item) => [item.productName, item.kind, item.index])).toEqual([
      ['Hat', 'shot', 1],
      ['Hat', 'shot', 2],
      ['Hat', 'shot', 3],
      ['Hat', 'shot', 4],
      ['Tote', 'shot', 1],
      ['Tote', 'shot', 2],
      ['Tote', 'shot', 3],
      ['Tote', 'shot', 4],
    ]);
    expect(view.items.every((item) => item.style === 'classic' && !item.reviewed && item.flag === null)).toBe(
      true,
    );
    expect(view.items.every((item) => item.url.length > 0 && item.thumbnailUrl !== null)).toBe(true);
    // When each was made: its shoot's finish, what Review's sort by time orders by.
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    const finished = new Set(
      db.prepare<[string], number>('SELECT finished_at FROM jobs WHERE batch_id = ?').pluck().all(batchId),
    );
    db.close();
    expect(view.items.every((item) => finished.has(item.madeAt) && item.madeAt > 0)).toBe(true);
    expect(view.counts).toMatchObject({
      total: 8,
      reviewed: 0,
      picked: 0,
      rejected: 0,
      unflagged: 8,
      shots: 8,
    });
    expect(view).toMatchObject({ canUndo: false, canRedo: false });
  });

  it('commits flags, stars and reasons at once, and filters combine', async () => {
    const [hat1, hat2, hat3, , tote1] = (await get()).items;
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat1!.id],
      change: { flag: 'picked', stars: 4 },
    });
    const rejected = await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat2!.id, tote1!.id],
      change: { rejectReason: 'garbled_text' },
    });
    expect(rejected.items.map((item) => [item.id, item.flag, item.rejectReason])).toEqual([
      [hat2!.id, 'rejected', 'garbled_text'],
      [tote1!.id, 'rejected', 'garbled_text'],
    ]);
    await callCore(h.core, 'review:decide', { batchId, resultIds: [hat3!.id], change: { stars: 2 } });

    // Committed: the database says so, read by another connection, before anything else happens.
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM review_decisions').get()).toEqual({ n: 4 });
    } finally {
      db.close();
    }

    const view = await get();
    expect(view.counts).toMatchObject({ total: 8, reviewed: 4, picked: 1, rejected: 2, unflagged: 5 });
    expect(view.counts.atLeastStars).toEqual([8, 2, 2, 1, 1, 0]);
    expect((await get({ flag: 'picked' })).items.map((item) => item.id)).toEqual([hat1!.id]);
    expect((await get({ minStars: 2 })).items.map((item) => item.id)).toEqual([hat1!.id, hat3!.id]);
    expect((await get({ reviewed: false, product: 'hat' })).items).toHaveLength(1);
    expect((await get({ flag: 'rejected', product: 'TOTE' })).items.map((item) => item.id)).toEqual([
      tote1!.id,
    ]);

    // A pick drops the reason; no flag drops it too.
    const picked = await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat2!.id],
      change: { flag: 'picked' },
    });
    expect(picked.items[0]).toMatchObject({ flag: 'picked', rejectReason: null });
  });

  it('keeps one and rejects the rest of its product, and undoes and redoes whole steps', async () => {
    const tote = (await get({ product: 'tote' })).items;
    const kept = await callCore(h.core, 'review:keep', { batchId, resultId: tote[2]!.id });
    expect(kept.items.map((item) => item.flag)).toEqual(['rejected', 'rejected', 'picked', 'rejected']);
    expect(kept.items[0]!.rejectReason).toBe('garbled_text');

    const undone = await callCore(h.core, 'review:undo', { batchId });
    expect(undone.items.map((item) => item.flag)).toEqual(['rejected', null, null, null]);
    expect(undone.canRedo).toBe(true);
    const redone = await callCore(h.core, 'review:redo', { batchId });
    expect(redone.items.map((item) => item.flag)).toEqual(['rejected', 'rejected', 'picked', 'rejected']);
    expect(redone.canRedo).toBe(false);

    // Undo all the way back: every decision of the session, then nothing more.
    for (let step = 0; step < 5; step++) await callCore(h.core, 'review:undo', { batchId });
    const start = await get();
    expect(start.counts.reviewed).toBe(0);
    expect(start.canUndo).toBe(false);
    expect((await callCore(h.core, 'review:undo', { batchId })).items).toEqual([]);
  });

  it('refuses what is not a result of the batch, and a change that says nothing', async () => {
    expect(
      (await refusalOf(h.core, 'review:decide', { batchId, resultIds: [999_999], change: { stars: 1 } }))
        .code,
    ).toBe('not_found');
    expect((await refusalOf(h.core, 'review:decide', { batchId, resultIds: [1], change: {} })).code).toBe(
      'bad_request',
    );
    expect(
      (await refusalOf(h.core, 'review:decide', { batchId, resultIds: [1], change: { stars: 6 } })).code,
    ).toBe('bad_request');
    expect((await refusalOf(h.core, 'review:get', { batchId: 'b_nope' })).code).toBe('not_found');
  });

  it('is read by adbatch review beside the app: counts, picks, and the whole view as JSON', async () => {
    const [hat1, , , , tote1] = (await get()).items;
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [hat1!.id],
      change: { flag: 'picked', stars: 3 },
    });
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [tote1!.id],
      change: { flag: 'rejected' },
    });
    const dataDir = join(h.dir, 'data');
    const text = await adbatch(['review', batchId, '--data-dir', dataDir]);
    expect(text.code, text.stderr).toBe(0);
    const folder = (await callCore(h.core, 'batches:get', { id: batchId })).resultsFolder;
    expect(text.stdout).toBe(
      `Review (${batchId}): 2 of 8 reviewed, 1 picked, 1 rejected\nPicked, in ${folder}:\n  Hat  shot 1 ★★★☆☆  ${hat1!.file}\n`,
    );
    const json = await adbatch(['review', batchId, '--json', '--data-dir', dataDir]);
    const view = JSON.parse(json.stdout) as ReviewView & { resultsFolder: string };
    expect(view.counts).toEqual((await get()).counts);
    expect(view.items.map((item) => [item.id, item.flag, item.stars])).toEqual(
      (await get()).items.map((item) => [item.id, item.flag, item.stars]),
    );
    expect(view.resultsFolder).toBe(folder);
  });

  it('answers a page of what the filter keeps, never splitting a product, with counts over the batch', async () => {
    const whole = await get();
    const first = await callCore(h.core, 'review:get', { batchId, page: { offset: 0, limit: 3 } });
    // Three asked for, four answered: the page ends with Hat's last shot.
    expect(first.items.map((item) => [item.productName, item.index])).toEqual([
      ['Hat', 1],
      ['Hat', 2],
      ['Hat', 3],
      ['Hat', 4],
    ]);
    expect(first.matching).toBe(8);
    expect(first.counts).toEqual(whole.counts);
    const rest = await callCore(h.core, 'review:get', {
      batchId,
      page: { offset: first.items.length, limit: 3 },
    });
    expect([...first.items, ...rest.items]).toEqual(whole.items);
    const unflagged = await callCore(h.core, 'review:get', {
      batchId,
      filter: { flag: 'none' },
      page: { offset: 0, limit: 1 },
    });
    const wholeUnflagged = await get({ flag: 'none' });
    expect(unflagged.matching).toBe(wholeUnflagged.items.length);
    expect(unflagged.items).toEqual(
      wholeUnflagged.items.filter((item) => item.productId === wholeUnflagged.items[0]!.productId),
    );
    expect((await refusalOf(h.core, 'review:get', { batchId, page: { offset: -1, limit: 3 } })).code).toBe(
      'bad_request',
    );
  });
});
