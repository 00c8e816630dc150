import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewView } from '../../../src-main/shared/models.ts';
import { EXAMPLES_DIR } from '../../harness/app-server.ts';
import { adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  refusalOf,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../../support/job-settings.ts';

// Review of one product across every batch that shot it, through the handler map, on two real batches the
// embedded sandbox made from the same example folder: the product's results of both batches (newest first,
// each with its batch), a decision seen in both scopes, undo and redo per scope, and `adbatch review
// --product`.

let h: CoreHarness;
let spring: { id: string; name: string };
let summer: { id: string; name: string };
const HAT = join(EXAMPLES_DIR, 'hat');

async function shoot(name: string, folders: string[], video: boolean) {
  const id = await finishedBatch(h.core, {
    inputs: folders.map((folder) => join(EXAMPLES_DIR, folder)),
    shoot: { ...QUICK_SHOOT, shots: 4 },
    video: video ? QUICK_VIDEO : null,
    name,
  });
  return { id, name };
}

beforeAll(async () => {
  h = await startCoreHarness();
  spring = await shoot('Spring', ['hat', 'cap-red'], false);
  summer = await shoot('Summer', ['hat'], true);
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const inBatch = (batchId: string): Promise<ReviewView> => callCore(h.core, 'review:get', { batchId });
const ofHat = (): Promise<ReviewView> => callCore(h.core, 'review:get', { product: HAT });
const hatInSpring = async () => (await inBatch(spring.id)).items.filter((item) => item.productName === 'hat');

describe('one product across batches', () => {
  it("lists the product's results of every batch that shot it, newest batch first, each with its batch", async () => {
    const view = await ofHat();
    expect(view.batchId).toBeNull();
    expect(view.product).toMatchObject({ key: `folder:${HAT}`, label: HAT, name: 'hat' });
    expect(view.product!.batches.map((batch) => batch.name)).toEqual(['Summer', 'Spring']);
    expect(view.product!.sourceUrls.length).toBeGreaterThan(0);
    expect(view.items.map((item) => [item.batch?.name, item.productName, item.kind, item.index])).toEqual([
      ['Summer', 'hat', 'shot', 1],
      ['Summer', 'hat', 'shot', 2],
      ['Summer', 'hat', 'shot', 3],
      ['Summer', 'hat', 'shot', 4],
      ['Summer', 'hat', 'video', 1],
      ['Spring', 'hat', 'shot', 1],
      ['Spring', 'hat', 'shot', 2],
      ['Spring', 'hat', 'shot', 3],
      ['Spring', 'hat', 'shot', 4],
    ]);
    // The same results as in each batch's own view, with the same files.
    const summerItems = (await inBatch(summer.id)).items;
    expect(view.items.slice(0, 5).map((item) => [item.id, item.url, item.file])).toEqual(
      summerItems.map((item) => [item.id, item.url, item.file]),
    );
    expect(view.items.slice(5).map((item) => item.id)).toEqual((await hatInSpring()).map((item) => item.id));
    expect(view.items.every((item) => item.sourceUrl !== null && item.batch!.createdAt > 0)).toBe(true);
    // A batch's own view does not say the batch on every result.
    expect(summerItems.every((item) => item.batch === undefined)).toBe(true);
    expect(view.counts).toMatchObject({ total: 9, reviewed: 0, shots: 8, videos: 1 });

    // Named by one of its products' ids, by its key, by its SKU (the folder's name), the same.
    const byId = await callCore(h.core, 'review:get', { product: summerItems[0]!.productId });
    const byKey = await callCore(h.core, 'review:get', { product: `folder:${HAT}` });
    const bySku = await callCore(h.core, 'review:get', { product: 'hat', filter: { kind: 'video' } });
    for (const named of [byId, byKey])
      expect(named.items.map((item) => item.id)).toEqual(view.items.map((item) => item.id));
    expect(bySku.items.map((item) => item.id)).toEqual([view.items[4]!.id]);
  });

  it('shows a decision made in either scope in the other', async () => {
    const [summer1, , , , , spring1, spring2] = (await ofHat()).items;
    await callCore(h.core, 'review:decide', {
      product: HAT,
      resultIds: [spring1!.id, summer1!.id],
      change: { flag: 'picked', stars: 4 },
    });
    expect((await hatInSpring())[0]).toMatchObject({ id: spring1!.id, flag: 'picked', stars: 4 });
    expect((await inBatch(summer.id)).items[0]).toMatchObject({ id: summer1!.id, flag: 'picked' });

    await callCore(h.core, 'review:decide', {
      batchId: spring.id,
      resultIds: [spring2!.id],
      change: { rejectReason: 'wrong_colour' },
    });
    const view = await ofHat();
    expect(view.items.find((item) => item.id === spring2!.id)).toMatchObject({
      flag: 'rejected',
      rejectReason: 'wrong_colour',
      batch: { id: spring.id, name: 'Spring' },
    });
    expect(view.counts).toMatchObject({ total: 9, reviewed: 3, picked: 2, rejected: 1 });
    const picked = await callCore(h.core, 'review:get', { product: HAT, filter: { flag: 'picked' } });
    expect(picked.items.map((item) => item.id)).toEqual([summer1!.id, spring1!.id]);
  });

  it('keeps one and rejects the rest of the product in every batch', async () => {
    const items = (await ofHat()).items;
    const kept = items[6]!;
    const answer = await callCore(h.core, 'review:keep', { product: HAT, resultId: kept.id });
    // Its shots of both batches, not the video.
    expect(answer.items.map((item) => [item.id, item.flag])).toEqual(
      items
        .filter((item) => item.kind === 'shot')
        .map((item) => [item.id, item.id === kept.id ? 'picked' : 'rejected']),
    );
    expect(answer.items.every((item) => item.batch !== undefined)).toBe(true);
    expect((await inBatch(summer.id)).items.map((item) => item.flag)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      null,
    ]);
  });

  it("undoes and redoes the product view's own steps, and a batch's undo its own", async () => {
    const items = (await ofHat()).items;
    const video = items[4]!;
    const cap = (await inBatch(spring.id)).items.find((item) => item.productName === 'cap-red')!;

    // The latest step is in the product's view; then one in Spring's view, on another product.
    await callCore(h.core, 'review:decide', { product: HAT, resultIds: [video.id], change: { stars: 5 } });
    await callCore(h.core, 'review:decide', {
      batchId: spring.id,
      resultIds: [cap.id],
      change: { flag: 'picked' },
    });

    // Undo in the product's view undoes its own last step (the video's stars), not Spring's later one.
    const undone = await callCore(h.core, 'review:undo', { product: HAT });
    expect(undone.items.map((item) => [item.id, item.stars, item.batch?.name])).toEqual([
      [video.id, 0, 'Summer'],
    ]);
    expect(undone.canRedo).toBe(true);
    expect((await inBatch(spring.id)).items.find((item) => item.id === cap.id)!.flag).toBe('picked');

    // Then the keep of the test before: every shot as it was.
    const beforeKeep = await callCore(h.core, 'review:undo', { product: HAT });
    expect(beforeKeep.items.map((item) => item.flag)).toEqual([
      'picked',
      null,
      null,
      null,
      'picked',
      'rejected',
      null,
      null,
    ]);
    const redone = await callCore(h.core, 'review:redo', { product: HAT });
    expect(redone.items.filter((item) => item.flag === 'picked')).toHaveLength(1);

    // Named another way, it is the same product and the same history.
    expect((await callCore(h.core, 'review:get', { product: 'hat' })).canRedo).toBe(true);

    // Spring's undo undoes Spring's steps: the cap's pick, then the reason given in Spring's view.
    expect(
      (await callCore(h.core, 'review:undo', { batchId: spring.id })).items.map((item) => item.id),
    ).toEqual([cap.id]);
    const reason = await callCore(h.core, 'review:undo', { batchId: spring.id });
    expect(reason.items.map((item) => [item.id, item.flag])).toEqual([[items[6]!.id, null]]);
    expect(reason.canUndo).toBe(false);
  });

  it('refuses what is not the product, or names two scopes', async () => {
    const cap = (await inBatch(spring.id)).items.find((item) => item.productName === 'cap-red')!;
    expect(
      (await refusalOf(h.core, 'review:decide', { product: HAT, resultIds: [cap.id], change: { stars: 1 } }))
        .code,
    ).toBe('not_found');
    expect((await refusalOf(h.core, 'review:get', { product: join(EXAMPLES_DIR, 'tote') })).code).toBe(
      'not_found',
    );
    expect((await refusalOf(h.core, 'review:get', { product: 'no-such-sku' })).code).toBe('not_found');
    expect((await refusalOf(h.core, 'review:get', { batchId: spring.id, product: HAT } as never)).code).toBe(
      'bad_request',
    );
  });

  it('is read by adbatch review --product beside the app, by folder or SKU, as text and JSON', async () => {
    const dataDir = join(h.dir, 'data');
    const summer2 = (await ofHat()).items[1]!;
    await callCore(h.core, 'review:decide', {
      product: HAT,
      resultIds: [summer2.id],
      change: { flag: 'picked', stars: 3 },
    });
    const view = await ofHat();
    const folders = Object.fromEntries(
      await Promise.all(
        [summer, spring].map(async (batch) => [
          batch.id,
          (await callCore(h.core, 'batches:get', { id: batch.id })).resultsFolder,
        ]),
      ),
    );
    expect(view.items.filter((item) => item.flag === 'picked').map((item) => item.id)).toEqual([summer2.id]);
    // `hat` where no such folder is: the SKU; `./hat/` beside the examples: the folder, from where the
    // command runs. The JSON is the handler's view.
    const run = (args: string[], cwd = h.dir) => adbatch([...args, '--data-dir', dataDir], { cwd });
    const [text, json, fromFolder, unknown, both] = await Promise.all([
      run(['review', '--product', 'hat']),
      run(['review', '--product', 'hat', '--json']),
      run(['review', '--product', './hat/', '--json'], EXAMPLES_DIR),
      run(['review', '--product', 'no-such-sku']),
      run(['review', spring.id, '--product', 'hat']),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(
      `hat (${HAT}), in 2 batches: ${view.counts.reviewed} of 9 reviewed, 1 picked, ${view.counts.rejected} rejected\n` +
        `Picked in Summer (${summer.id}), in ${folders[summer.id]}:\n  hat  shot 2 ★★★☆☆  ${summer2.file}\n`,
    );
    for (const printed of [json, fromFolder]) {
      expect(printed.code, printed.stderr).toBe(0);
      const parsed = JSON.parse(printed.stdout) as ReviewView & { resultsFolders: Record<string, string> };
      expect(parsed.items.map((item) => [item.id, item.flag, item.batch?.id])).toEqual(
        view.items.map((item) => [item.id, item.flag, item.batch?.id]),
      );
      expect(parsed.counts).toEqual(view.counts);
      expect(parsed.resultsFolders).toEqual(folders);
    }

    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No batch shot a product named no-such-sku');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('not both');
  }, 120_000);
});
