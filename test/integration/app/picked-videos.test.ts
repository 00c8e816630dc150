import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  refusalOf,
  untilFinished,
} from '../../support/core-harness.ts';
import { addFault } from '../../support/engine-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../../support/job-settings.ts';
import { type StaticServer, writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';

// Issue 12, videos from the picks, through the handler map: per product the picked shots in the order the
// designer set, as many as the length takes; the quote equals the charge to the credit, and each video's
// POST names exactly the picked shots, in that order.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let photos: StaticServer;
let batchId: string;

beforeAll(async () => {
  harness = await startStudioHarness({ videoRenderer: 'bundled' });
  ({ h, service, photos } = harness);
  batchId = await finishedBatch(h.core, {
    inputs: [await writeCatalog(join(h.dir, 'picks.csv'), photos, ['hat', 'tote', 'mug'])],
    accountId: harness.studio.id,
    shoot: { ...QUICK_SHOOT, shots: 4 },
    name: 'Picks',
  });
}, 90_000);
afterAll(() => harness?.close());

describe('videos from the picks', () => {
  it('quotes per product from the picks in the chosen order, and the POSTs name exactly those shots', async () => {
    const items = (await callCore(h.core, 'review:get', { batchId })).items;
    const of = (product: string) => items.filter((item) => item.productName === product);
    const [hat1, , hat3, hat4] = of('Hat');
    const [, tote2] = of('Tote');
    await pickResults(h.core, batchId, [hat1!.id, hat3!.id, hat4!.id, tote2!.id]);
    const request = {
      batchId,
      video: {
        duration: 10 as const,
        resolution: '720p' as const,
        mode: 'product_only' as const,
        aspectRatio: null,
        music: false,
        note: 'Slow push-in',
      },
      order: { [hat1!.productId]: [hat4!.id, hat1!.id, hat3!.id] },
    };
    const quote = await callCore(h.core, 'videos:quote', request);
    expect(quote.products.map((product) => [product.productName, product.used, product.credits])).toEqual([
      ['Hat', [hat4!.id, hat1!.id, hat3!.id], 34],
      ['Tote', [tote2!.id], 34],
      ['Mug', [], 0],
    ]);
    expect(quote.credits).toBe(68);

    const spentBefore = (await callCore(h.core, 'batches:get', { id: batchId })).creditsSpent;
    await callCore(h.core, 'videos:create', request);
    await untilFinished(h.core, batchId);
    const after = await callCore(h.core, 'batches:get', { id: batchId });
    expect(after.creditsSpent - spentBefore).toBe(quote.credits);

    const posts = service
      .requests()
      .filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos')
      .map((entry) => entry.body as { image_urls: string[]; music: boolean; note: string });
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    const urlOf = (id: number) =>
      (db.prepare('SELECT url FROM assets WHERE id = ?').get(id) as { url: string }).url;
    try {
      // Each POST names its product's picks in the chosen order; the two POSTs may leave in either order.
      expect(posts).toHaveLength(2);
      expect(posts.map((body) => body.image_urls)).toEqual(
        expect.arrayContaining([[hat4!.id, hat1!.id, hat3!.id].map(urlOf), [tote2!.id].map(urlOf)]),
      );
    } finally {
      db.close();
    }
    expect(posts.every((body) => body.music === false && body.note === 'Slow push-in')).toBe(true);
    // The videos are reviewed like the shots.
    expect((await callCore(h.core, 'review:get', { batchId, filter: { kind: 'video' } })).items).toHaveLength(
      2,
    );
  }, 90_000);

  it('is quoted by adbatch videos beside the app, and made only with --yes', async () => {
    const env = harness.cliEnv();
    const dataDir = join(h.dir, 'data');
    const quoted = await adbatch(
      ['videos', batchId, '--from', 'picked', '--video', '5s/480p', '--music', 'off', '--data-dir', dataDir],
      { env },
    );
    expect(quoted.code, quoted.stderr).toBe(0);
    // 5 s takes one shot: the first of each product's picks; 5 s at 480p, product only, is 9 credits.
    const balance = harness.credits();
    expect(quoted.stdout).toBe(
      [
        'Product  Shots  Credits',
        'Hat          1        9',
        'Tote         1        9',
        'Mug          0  no picks',
        `Total${' '.repeat(16)}18`,
        'Each video: 5 s x 2 credits a second = 10 - 1 (15 % off without a model, rounded down to whole credits) = 9 credits',
        `Balance: ${balance} credits`,
        'Add --yes to make these videos.',
        '',
      ].join('\n'),
    );
    const refused = await adbatch(
      ['videos', batchId, '--from', 'picked', '--video', '5s/480p', '--yes', '--data-dir', dataDir],
      { env },
    );
    expect(refused.code).toBe(5);
  });

  it('refuses an order naming a shot that is not a pick, and a batch without picks', async () => {
    const items = (await callCore(h.core, 'review:get', { batchId })).items;
    const mug = items.find((item) => item.productName === 'Mug')!;
    const video = {
      duration: 5 as const,
      resolution: '480p' as const,
      mode: 'product_only' as const,
      aspectRatio: null,
    };
    const refused = await refusalOf(h.core, 'videos:quote', {
      batchId,
      video,
      order: { [mug.productId]: [mug.id] },
    });
    expect(refused.message).toMatch(/names a shot that is not one of its picks/);
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: items.filter((item) => item.flag === 'picked').map((item) => item.id),
      change: { flag: null },
    });
    expect((await refusalOf(h.core, 'videos:create', { batchId, video })).message).toBe(
      'No product has a picked shot: pick shots first.',
    );
  });

  it('adbatch videos on a batch without picks says so, points to Review and spends nothing', async () => {
    // The tests before this one leave picks in the batch; run alone, it has none.
    const picked = (await callCore(h.core, 'review:get', { batchId })).items.filter(
      (item) => item.flag === 'picked',
    );
    if (picked.length > 0) {
      await callCore(h.core, 'review:decide', {
        batchId,
        resultIds: picked.map((item) => item.id),
        change: { flag: null },
      });
    }
    const balance = harness.credits();
    const posts = service.requests().filter((entry) => entry.method === 'POST').length;

    const refused = await adbatch(
      ['videos', batchId, '--from', 'picked', '--video', '5s/480p', '--data-dir', join(h.dir, 'data')],
      { env: harness.cliEnv() },
    );

    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `No product in batch ${batchId} has a picked shot yet: pick shots in Review in the app, or with \`adbatch pick <file...>\` (\`adbatch review ${batchId}\` shows where its review stands). Nothing was spent.\n`,
    );
    expect(`${refused.stdout}${refused.stderr}`).not.toMatch(/--yes/);
    expect(harness.credits()).toBe(balance);
    expect(service.requests().filter((entry) => entry.method === 'POST')).toHaveLength(posts);
  });

  it('refuses videos in a cancelled batch, adding nothing to it', async () => {
    const catalog = await writeCatalog(join(h.dir, 'cancelled.csv'), photos, ['hat']);
    const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
    // Its automatic video's POST is held: while it is being sent the cancelled batch has a job active, so it
    // stays cancelled (a cancelled batch finishes once nothing in it is active).
    await addFault(service, {
      method: 'POST',
      path: '/v1/videos',
      action: 'delay',
      delay_ms: 15_000,
      times: 1,
    });
    const { id } = await callCore(h.core, 'batches:create', {
      scanId: scan.scanId,
      accountId: harness.studio.id,
      shoot: QUICK_SHOOT,
      video: QUICK_VIDEO,
      includeDone: true,
      name: 'Cancelled',
    });
    const deadline = Date.now() + 60_000;
    const states = async () =>
      (await callCore(h.core, 'batches:get', { id })).items[0]!.jobs.map((job) => job.state).join(' ');
    while ((await states()) !== 'done submitting') {
      if (Date.now() > deadline) throw new Error(`the jobs are ${await states()}, not done and submitting`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await callCore(h.core, 'batches:cancel', { id });
    const [shot] = (await callCore(h.core, 'review:get', { batchId: id, filter: { kind: 'shot' } })).items;
    await callCore(h.core, 'review:decide', {
      batchId: id,
      resultIds: [shot!.id],
      change: { flag: 'picked' },
    });
    const before = await callCore(h.core, 'batches:get', { id });
    expect(before.status).toBe('cancelled');

    expect(await refusalOf(h.core, 'videos:create', { batchId: id, video: QUICK_VIDEO })).toEqual({
      code: 'conflict',
      message: `Batch ${id} is cancelled: nothing new is made in it.`,
    });
    const after = await callCore(h.core, 'batches:get', { id });
    expect(after.jobs).toBe(before.jobs);
    expect(after.quotedCredits).toBe(before.quotedCredits);
    await untilFinished(h.core, id);
  }, 90_000);
});
