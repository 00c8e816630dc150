import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src-main/sandbox/server.ts';
import type { AccountView, VideoSettingsView } from '../../../src-main/shared/models.ts';
import { type CoreHarness, callCore, pickResults, untilFinished } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';

// Issue 12, New batch's "after review, from my picks": the batch is made and charged for its shoots alone,
// no video is sent, the video settings chosen are kept on the batch for the Make videos dialog, and the
// videos are made (and charged) only from the picks, later.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let studio: AccountView;
let scanId: string;

const LATER: VideoSettingsView = {
  duration: 10,
  resolution: '720p',
  mode: 'product_only',
  aspectRatio: '9:16',
};
const videoPosts = () =>
  service.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos');

beforeAll(async () => {
  harness = await startStudioHarness({ videoRenderer: 'bundled' });
  ({ h, service, studio } = harness);
  const catalog = await writeCatalog(join(h.dir, 'later.csv'), harness.photos, ['hat', 'tote']);
  scanId = (await callCore(h.core, 'ingest:scan', { inputs: [catalog] })).scanId;
}, 60_000);
afterAll(() => harness?.close());

describe('videos after review, from the picks', () => {
  it('quotes and charges the shoots alone, sends no video, and keeps the settings for Make videos', async () => {
    const request = {
      scanId,
      accountId: studio.id,
      shoot: { ...QUICK_SHOOT, shots: 4 as const },
      video: LATER,
      videoWhen: 'after_review' as const,
      includeDone: true,
    };
    const quote = await callCore(h.core, 'batches:quote', request);
    // 4 standard shots a product, 4 credits; the video (10 s at 720p, product only: 34) is said apart.
    expect(quote.products.map((row) => [row.product, row.credits, row.videoCredits])).toEqual([
      ['Hat', 4, 0],
      ['Tote', 4, 0],
    ]);
    expect(quote.credits).toBe(8);
    expect(quote.videoLaterCredits).toBe(34);
    const atOnce = await callCore(h.core, 'batches:quote', { ...request, videoWhen: 'at_once' });
    expect([atOnce.credits, atOnce.videoLaterCredits]).toEqual([8 + 2 * 34, null]);

    const balanceBefore = harness.credits();
    const created = await callCore(h.core, 'batches:create', { ...request, name: 'Later' });
    await untilFinished(h.core, created.id);
    const batch = await callCore(h.core, 'batches:get', { id: created.id });
    expect(batch.items.flatMap((item) => item.jobs.map((job) => job.kind))).toEqual(['shoot', 'shoot']);
    expect(batch.quotedCredits).toBe(8);
    expect(batch.creditsSpent).toBe(8);
    expect(balanceBefore - harness.credits()).toBe(8);
    expect(videoPosts()).toHaveLength(0);
    expect(batch.video).toBeNull();
    expect(batch.videosAfterReview).toEqual({ video: LATER, made: false });

    // Made later from the picks, with those settings: then it says they are made, and keeps the settings.
    const items = (await callCore(h.core, 'review:get', { batchId: batch.id })).items;
    const hat = items.find((item) => item.productName === 'Hat')!;
    await pickResults(h.core, batch.id, [hat.id]);
    const made = { batchId: batch.id, video: batch.videosAfterReview!.video };
    expect((await callCore(h.core, 'videos:quote', made)).credits).toBe(34);
    await callCore(h.core, 'videos:create', made);
    await untilFinished(h.core, batch.id);
    const after = await callCore(h.core, 'batches:get', { id: batch.id });
    expect(after.videosAfterReview).toEqual({ video: LATER, made: true });
    expect(after.creditsSpent).toBe(8 + 34);
    expect(videoPosts().map((entry) => (entry.body as { aspect_ratio?: string }).aspect_ratio)).toEqual([
      '9:16',
    ]);
  }, 90_000);

  it('keeps today’s automatic video when the request does not say when (adbatch run --video)', async () => {
    const created = await callCore(h.core, 'batches:create', {
      scanId,
      accountId: studio.id,
      shoot: QUICK_SHOOT,
      video: { ...LATER, duration: 5, resolution: '480p' },
      includeDone: true,
      name: 'At once',
    });
    const batch = await callCore(h.core, 'batches:get', { id: created.id });
    expect(batch.items.flatMap((item) => item.jobs.map((job) => job.kind))).toEqual([
      'shoot',
      'video',
      'shoot',
      'video',
    ]);
    expect(batch.videosAfterReview).toBeNull();
    await callCore(h.core, 'batches:cancel', { id: created.id });
  });
});
