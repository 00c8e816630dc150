import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src-main/sandbox/server.ts';
import type { PickedVideosRequest } from '../../../src-main/shared/models.ts';
import { adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  untilFinished,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { type StaticServer, writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';

// Issue 27, check before spending what the service will fetch: videos from the picks with a logo whose
// address answers 404 (on a loopback static server, as a shop's CDN) are held before their POST, with the
// reason on the batch, no credit spent and the logo asked once for all of them; once the address answers,
// resume sends them with the logo, and the logo and note typed stay with the batch's videos.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let photos: StaticServer;
let batchId: string;

beforeAll(async () => {
  harness = await startStudioHarness({ videoRenderer: 'bundled' });
  ({ h, service, photos } = harness);
  batchId = await finishedBatch(h.core, {
    inputs: [await writeCatalog(join(h.dir, 'logo.csv'), photos, ['hat', 'tote', 'mug'])],
    accountId: harness.studio.id,
    shoot: QUICK_SHOOT,
    name: 'Logo',
  });
}, 90_000);
afterAll(() => harness?.close());

const videoPosts = () =>
  service
    .requests()
    .filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos')
    .map((entry) => entry.body as { logo_url?: string; note?: string });

describe('a logo the service could not fetch', () => {
  it('holds the videos before their POST, says why, spends nothing, and sends them once the logo answers', async () => {
    const shots = (await callCore(h.core, 'review:get', { batchId, filter: { kind: 'shot' } })).items;
    await pickResults(
      h.core,
      batchId,
      shots.map((shot) => shot.id),
    );
    const logoPath = '/brand/logo.png';
    const logoUrl = `${photos.url}${logoPath}`;
    const video: PickedVideosRequest['video'] = {
      duration: 5,
      resolution: '480p',
      mode: 'product_only',
      aspectRatio: null,
      logoUrl,
      note: 'Gold on black',
    };
    const credits = harness.credits();
    const spent = (await callCore(h.core, 'batches:get', { id: batchId })).creditsSpent;
    await callCore(h.core, 'videos:create', { batchId, video });

    await expect
      .poll(async () => (await callCore(h.core, 'batches:get', { id: batchId })).statusReason, {
        timeout: 30_000,
      })
      .toBe('input_unreachable');
    const held = await callCore(h.core, 'batches:get', { id: batchId });
    const message = `The logo (${logoUrl}) does not answer: HTTP 404. Nothing was sent and no credit spent: fix the address or its server, then resume.`;
    expect(held).toMatchObject({ status: 'paused', statusMessage: message, creditsSpent: spent });
    expect(held.decisions).toContain('resume');
    expect(h.notices).toContainEqual({ id: batchId, message: `Paused: ${message}` });
    const videos = held.items.flatMap((item) => item.jobs).filter((job) => job.kind === 'video');
    expect(videos.map((job) => job.state)).toEqual(['waiting', 'waiting', 'waiting']);
    expect(videoPosts()).toEqual([]);
    expect(harness.credits()).toBe(credits);
    // What was typed stays: Make videos starts from it again.
    expect(held.lastPickedVideo).toMatchObject({ logoUrl, note: 'Gold on black' });
    // Asked once for the batch, not once for each of its three videos.
    expect(photos.hits().filter((path) => path === logoPath)).toHaveLength(1);

    const logo = await sharp({
      create: { width: 240, height: 96, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 0.9 } },
    })
      .png()
      .toBuffer();
    photos.addFile(logoPath, { body: logo, contentType: 'image/png' });
    await callCore(h.core, 'batches:resume', { id: batchId });
    await untilFinished(h.core, batchId);

    const posts = videoPosts();
    expect(posts).toHaveLength(3);
    expect(posts.every((post) => post.logo_url === logoUrl && post.note === 'Gold on black')).toBe(true);
    const finished = await callCore(h.core, 'batches:get', { id: batchId });
    expect(finished.lastPickedVideo).toMatchObject({ logoUrl, note: 'Gold on black' });
    expect(finished.items.flatMap((item) => item.jobs).every((job) => job.state === 'done')).toBe(true);
  }, 120_000);

  it('holds a page served as 200 where an image should be, before any POST', async () => {
    const before = videoPosts().length;
    const pagePath = '/brand/moved.png';
    photos.addFile(pagePath, { body: '<html>moved</html>', contentType: 'text/html' });
    const shots = (await callCore(h.core, 'review:get', { batchId, filter: { kind: 'shot' } })).items;
    await callCore(h.core, 'videos:create', {
      batchId,
      video: {
        duration: 5,
        resolution: '480p',
        mode: 'product_only',
        aspectRatio: null,
        logoUrl: `${photos.url}${pagePath}`,
      },
      order: { [shots[0]!.productId]: [shots[0]!.id] },
    });
    await expect
      .poll(async () => (await callCore(h.core, 'batches:get', { id: batchId })).statusMessage, {
        timeout: 30_000,
      })
      .toMatch(/^The logo \(.+moved\.png\) does not answer: not an image \(text\/html\)\./);
    expect(videoPosts()).toHaveLength(before);
  }, 60_000);

  it('adbatch videos --logo with an address that does not answer: paused before any POST, said, exit 4', async () => {
    const other = await finishedBatch(h.core, {
      inputs: [await writeCatalog(join(h.dir, 'cli-logo.csv'), photos, ['capRed'])],
      accountId: harness.studio.id,
      shoot: QUICK_SHOOT,
      name: 'CLI logo',
    });
    const [shot] = (await callCore(h.core, 'review:get', { batchId: other, filter: { kind: 'shot' } })).items;
    await pickResults(h.core, other, [shot!.id]);
    await harness.quitApp();
    const before = videoPosts().length;
    const logoUrl = `${photos.url}/brand/cli-logo.png`;

    const dataDir = join(h.dir, 'data');
    const args = ['videos', other, '--from', 'picked', '--video', '5s/480p', '--yes', '--data-dir', dataDir];
    const made = await adbatch([...args, '--logo', logoUrl], { env: harness.cliEnv() });
    expect(made.code, made.stdout + made.stderr).toBe(4);
    expect(made.stderr).toContain(
      `Paused: The logo (${logoUrl}) does not answer: HTTP 404. Nothing was sent and no credit spent: fix the address or its server, then resume.`,
    );
    expect(videoPosts()).toHaveLength(before);
  }, 90_000);
});
