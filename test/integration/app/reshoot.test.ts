import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src-main/sandbox/server.ts';
import type { AccountView, ReshootRequest, ReviewItemView } from '../../../src-main/shared/models.ts';
import { priceWords } from '../../../src-main/shared/money-words.ts';
import { adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  refusalOf,
  untilFinished,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { PRODUCT_PHOTOS, type StaticServer, writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';
import { untilValue } from '../../support/until.ts';

// Issue 12, point 7, through the handler map against the sandbox over HTTP: the products whose shots are all
// rejected are shot again with other settings in the same batch; the quote equals the charge to the credit,
// the service gets exactly those shoots with the new settings, a second create adds nothing, and the new
// shots join their products in Review after the rejected ones, in files of their own.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let photos: StaticServer;
let studio: AccountView;
let batchId: string;

const LUXURY_PRO = {
  ...QUICK_SHOOT,
  style: 'luxury' as const,
  // Asked for 6: luxury makes 4 (and charges 4), at 2 credits a shot.
  shots: 6 as const,
  quality: 'pro' as const,
  backgroundColor: '#112233',
};

const shootPosts = () =>
  service
    .requests()
    .filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots' && entry.status === 201)
    .map(
      (entry) =>
        entry.body as {
          product_image_urls: string[];
          style: string;
          shots: number;
          quality: string;
          background_color?: string;
        },
    );

interface ManifestJob {
  kind: string;
  state: string;
  settings: { style: string };
  files: Array<{ kind: string; path: string }>;
}

const itemsOf = async (product: string): Promise<ReviewItemView[]> =>
  (await callCore(h.core, 'review:get', { batchId })).items.filter((item) => item.productName === product);

beforeAll(async () => {
  harness = await startStudioHarness();
  ({ h, service, photos, studio } = harness);
  batchId = await finishedBatch(h.core, {
    inputs: [await writeCatalog(join(h.dir, 'reshoot.csv'), photos, ['hat', 'tote', 'mug'])],
    accountId: studio.id,
    shoot: { ...QUICK_SHOOT, shots: 4 },
    name: 'Reshoot',
  });
}, 90_000);
afterAll(() => harness?.close());

describe('reshoot', () => {
  it('shoots the all-rejected products again with the new settings, charged as quoted, once', async () => {
    const [hat, tote, mug] = [await itemsOf('Hat'), await itemsOf('Tote'), await itemsOf('Mug')];
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [...hat, ...tote, ...mug.slice(1)].map((item) => item.id),
      change: { flag: 'rejected', rejectReason: 'wrong_colour' },
    });
    const request: ReshootRequest = { batchId, shoot: LUXURY_PRO };

    // By default, the products whose shots are all rejected; Mug keeps a shot.
    const quote = await callCore(h.core, 'reshoot:quote', request);
    expect(
      quote.products.map((row) => [row.productName, row.rejected, row.shots, row.clamped, row.credits]),
    ).toEqual([
      ['Hat', 4, 4, true, 8],
      ['Tote', 4, 4, true, 8],
    ]);
    expect(quote.underway).toEqual([]);
    expect(quote.credits).toBe(16);
    expect(priceWords(quote.price)).toBe('4 shots x 2 credits a shot = 8 credits');
    expect(quote.accountId).toBe(studio.id);
    const balance = harness.credits();
    expect(quote.balance).toBe(balance);

    // Naming a product that still has a shot to keep is refused, with the reason.
    const refused = await refusalOf(h.core, 'reshoot:quote', { ...request, productIds: [mug[0]!.productId] });
    expect(refused).toEqual({
      code: 'conflict',
      message: 'Mug still has 1 shot not rejected: reject it first to shoot it again.',
    });

    const postsBefore = shootPosts().length;
    const spentBefore = (await callCore(h.core, 'batches:get', { id: batchId })).creditsSpent;
    // A double click: two creates at once add the shoots once; the other is refused with the reason.
    const replies = await Promise.all([
      h.core.dispatch('reshoot:create', request),
      h.core.dispatch('reshoot:create', request),
    ]);
    expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
    expect(replies.find((reply) => !reply.ok)).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: 'Hat, Tote are being shot already: the new shots join Review as they land.',
      },
    });
    // While they are on their way, the quote says so and offers nothing.
    const during = await callCore(h.core, 'reshoot:quote', request);
    expect([during.products, during.underway.map((row) => row.productName)]).toEqual([[], ['Hat', 'Tote']]);
    await untilFinished(h.core, batchId);

    const posts = shootPosts().slice(postsBefore);
    expect(posts).toEqual([
      {
        product_image_urls: [photos.urlOf(PRODUCT_PHOTOS.hat)],
        style: 'luxury',
        mode: 'product_only',
        shots: 6,
        aspect_ratio: '1:1',
        quality: 'pro',
        background_color: '#112233',
      },
      {
        product_image_urls: [photos.urlOf(PRODUCT_PHOTOS.tote)],
        style: 'luxury',
        mode: 'product_only',
        shots: 6,
        aspect_ratio: '1:1',
        quality: 'pro',
        background_color: '#112233',
      },
    ]);
    const after = await callCore(h.core, 'batches:get', { id: batchId });
    expect(after.creditsSpent - spentBefore).toBe(quote.credits);
    expect(after.quotedCredits).toBe(3 * 4 + quote.credits);

    // Nothing is left to reshoot, and a create now adds nothing.
    expect((await callCore(h.core, 'reshoot:quote', request)).products).toEqual([]);
    expect((await refusalOf(h.core, 'reshoot:create', request)).message).toBe(
      'No product has all its shots rejected: reject every shot of a product to shoot it again.',
    );
    expect(shootPosts()).toHaveLength(postsBefore + 2);
  }, 90_000);

  it('lists the new shots after the rejected ones, in files of their own, and in the manifest', async () => {
    const hat = await itemsOf('Hat');
    expect(hat.map((item) => [item.style, item.index, item.flag, item.file])).toEqual([
      ['classic', 1, 'rejected', '001 Hat/shot-1.jpg'],
      ['classic', 2, 'rejected', '001 Hat/shot-2.jpg'],
      ['classic', 3, 'rejected', '001 Hat/shot-3.jpg'],
      ['classic', 4, 'rejected', '001 Hat/shot-4.jpg'],
      ['luxury', 1, null, '001 Hat/reshoot-1-shot-1.jpg'],
      ['luxury', 2, null, '001 Hat/reshoot-1-shot-2.jpg'],
      ['luxury', 3, null, '001 Hat/reshoot-1-shot-3.jpg'],
      ['luxury', 4, null, '001 Hat/reshoot-1-shot-4.jpg'],
    ]);
    expect(hat.every((item) => item.flag !== 'rejected' || item.rejectReason === 'wrong_colour')).toBe(true);
    expect((await itemsOf('Mug')).map((item) => item.style)).toEqual([
      'classic',
      'classic',
      'classic',
      'classic',
    ]);

    const detail = await callCore(h.core, 'batches:get', { id: batchId });
    // The manifest is written again as the batch finishes again, just after it does.
    const hatJobs = await untilValue(async () => {
      const manifest = JSON.parse(await readFile(join(detail.resultsFolder, 'manifest.json'), 'utf8')) as {
        products: Array<{ name: string; jobs: ManifestJob[] }>;
      };
      const jobs = manifest.products.find((product) => product.name === 'Hat')!.jobs;
      return jobs.length === 2 && jobs.every((job) => job.state === 'done') ? jobs : null;
    });
    expect(hatJobs.map((job) => [job.kind, job.settings.style])).toEqual([
      ['shoot', 'classic'],
      ['shoot', 'luxury'],
    ]);
    expect(hatJobs[1]!.files.map((file) => file.path)).toContain('001 Hat/thumbnails/reshoot-1-shot-1.jpg');
    for (const item of hat) expect(existsSync(join(detail.resultsFolder, item.file))).toBe(true);
  });

  it("makes a video from one shoot's picks, the reshoot's included", async () => {
    const hat = await itemsOf('Hat');
    const [old1] = hat;
    const [, , , , new1, new2] = hat;
    await pickResults(h.core, batchId, [old1!.id, new1!.id, new2!.id]);
    const video = {
      duration: 10 as const,
      resolution: '480p' as const,
      mode: 'product_only' as const,
      aspectRatio: null,
    };
    const quote = await callCore(h.core, 'videos:quote', {
      batchId,
      video,
      order: { [old1!.productId]: [new2!.id, old1!.id, new1!.id] },
    });
    const row = quote.products.find((product) => product.productName === 'Hat')!;
    expect(row.used).toEqual([new2!.id, new1!.id]);
  });

  it('is quoted by adbatch reshoot and made with --yes; status and review tell the reshoot apart', async () => {
    const mug = await itemsOf('Mug');
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: [mug[0]!.id],
      change: { flag: 'rejected' },
    });
    // The app lets go of the queue, as when it is quit; the command then drives the batch with the key.
    await harness.quitApp();
    const env = harness.cliEnv();
    const dataDir = join(h.dir, 'data');
    const args = ['reshoot', batchId, '--products', 'mug', '--style', 'minimal', '--data-dir', dataDir];
    const quoted = await adbatch(args, { env });
    expect(quoted.code, quoted.stderr).toBe(1);
    const balance = harness.credits();
    expect(quoted.stdout).toBe(
      [
        'Product  Rejected  Shots  Credits',
        '---------------------------------',
        'Mug             4      4        4',
        '---------------------------------',
        `Total${' '.repeat(27)}4`,
        'Each shoot: 4 shots x 1 credit a shot = 4 credits',
        `Balance: ${balance} credits.`,
        '',
      ].join('\n'),
    );
    expect(quoted.stderr).toBe('Pass --yes to reshoot without a prompt. Nothing was started.\n');
    const postsBefore = shootPosts().length;

    const made = await adbatch([...args, '--yes'], { env });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(`Reshooting 1 product in batch ${batchId}.`);
    expect(
      shootPosts()
        .slice(postsBefore)
        .map((body) => [body.style, body.shots, body.quality]),
    ).toEqual([['minimal', 4, 'standard']]);

    const status = await adbatch(['status', batchId, '--data-dir', dataDir]);
    const lines = status.stdout
      .split('\n')
      .filter((line) => line.startsWith('    Hat') || line.startsWith('    Mug'));
    expect(lines).toEqual([
      '    Hat  shoot  done (completed)  4/4 credits',
      '    Hat  reshoot 1  done (completed)  8/8 credits',
      '    Mug  shoot  done (completed)  4/4 credits',
      '    Mug  reshoot 1  done (completed)  4/4 credits',
    ]);
    const review = await adbatch(['review', batchId, '--json', '--data-dir', dataDir]);
    const files = (JSON.parse(review.stdout) as { items: ReviewItemView[] }).items
      .filter((item) => item.productName === 'Mug')
      .map((item) => item.file);
    expect(files).toEqual([
      '003 Mug/shot-1.jpg',
      '003 Mug/shot-2.jpg',
      '003 Mug/shot-3.jpg',
      '003 Mug/shot-4.jpg',
      '003 Mug/reshoot-1-shot-1.jpg',
      '003 Mug/reshoot-1-shot-2.jpg',
      '003 Mug/reshoot-1-shot-3.jpg',
      '003 Mug/reshoot-1-shot-4.jpg',
    ]);
  }, 90_000);
});
