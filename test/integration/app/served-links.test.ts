import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { AccountView, PickedVideosRequest } from '../../../src-main/shared/models.ts';
import { type CoreHarness, callCore, startCoreHarness, untilFinished } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from '../../support/static-server.ts';

// Issue 12, "the service gets working links only": before a video's POST each of its shots' result URLs is
// asked whether it still answers; one that does not is replaced by the downloaded, verified file served from
// the batch's photo host (here the loopback host: the service runs on this machine). The sandbox expires
// result URLs on request (POST /_sandbox/results/expire) and fetches every input, so a video that completes
// was made from links that worked.

let h: CoreHarness;
let service: Sandbox;
let photos: StaticServer;
let studio: AccountView;
let batchId: string;

const VIDEO_10S: PickedVideosRequest['video'] = {
  duration: 10,
  resolution: '720p',
  mode: 'product_only',
  aspectRatio: null,
  music: false,
};

interface AssetRow {
  id: number;
  url: string;
  path: string;
  sha256: string;
}
interface JobRow {
  id: string;
  state: string;
  remote_id: string | null;
  credits_charged: number;
  failure_code: string | null;
  failure_message: string | null;
  request: string | null;
}

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const asset = (id: number) => query<AssetRow>('SELECT * FROM assets WHERE id = ?', id)[0]!;
const jobsOf = (productId: string, kind: 'shoot' | 'video') =>
  query<JobRow>('SELECT * FROM jobs WHERE product_id = ? AND kind = ? ORDER BY created_at', productId, kind);
const libraryDir = () =>
  query<{ library_dir: string }>('SELECT library_dir FROM batches WHERE id = ?', batchId)[0]!.library_dir;

/** Where the loopback host serves from: the port it keeps in the data folder across restarts. */
async function loopbackOrigin(): Promise<string> {
  const { port } = JSON.parse(await readFile(join(h.dir, 'data', 'photo-host.json'), 'utf8'));
  return `http://127.0.0.1:${port}/p/`;
}

async function sha256Of(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return createHash('sha256')
    .update(Buffer.from(await response.arrayBuffer()))
    .digest('hex');
}

async function expire(remoteIds: string[], status = 410): Promise<void> {
  const response = await fetch(`${service.url}/_sandbox/results/expire`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status, job_ids: remoteIds }),
  });
  expect(response.status).toBe(200);
}

const videoPosts = () =>
  service
    .requests()
    .filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos')
    .map((entry) => entry.body as { image_urls: string[]; logo_url?: string });

async function picksOf(product: string) {
  const items = (await callCore(h.core, 'review:get', { batchId, filter: { kind: 'shot' } })).items;
  return items.filter((item) => item.productName === product);
}

beforeAll(async () => {
  h = await startCoreHarness();
  service = await startSandbox({ port: 0, timeScale: 0.02, videoRenderer: 'bundled' });
  photos = await startStaticServer();
  studio = await callCore(h.core, 'accounts:add', {
    name: 'Studio',
    baseUrl: service.url,
    apiKey: defaultKeys(service).personal,
  });
  const catalog = join(h.dir, 'links.csv');
  await writeFile(
    catalog,
    `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\nTote,${photos.urlOf(PRODUCT_PHOTOS.tote)}\nMug,${photos.urlOf(PRODUCT_PHOTOS.mug)}\n`,
  );
  const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
  const batch = await callCore(h.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: studio.id,
    shoot: { ...QUICK_SHOOT, shots: 4 },
    video: null,
    includeDone: true,
    name: 'Links',
  });
  batchId = batch.id;
  await untilFinished(h.core, batchId);
}, 90_000);
afterAll(async () => {
  await photos?.close();
  await h?.close();
  await service?.close();
});

describe('working links for videos from the picks', () => {
  it('sends served copies in the picked order where the result URLs expired, and the URLs that answer as they are', async () => {
    const [hat1, , hat3, hat4] = await picksOf('Hat');
    const [, tote2] = await picksOf('Tote');
    await callCore(h.core, 'review:decide', {
      batchId,
      itemIds: [hat1!.id, hat3!.id, hat4!.id, tote2!.id],
      change: { flag: 'picked' },
    });
    const hatShoot = jobsOf(hat1!.productId, 'shoot')[0]!;
    await expire([hatShoot.remote_id!]);
    expect((await fetch(asset(hat1!.id).url)).status).toBe(410);
    expect((await fetch(asset(tote2!.id).url)).status).toBe(200);

    const request = {
      batchId,
      video: VIDEO_10S,
      order: { [hat1!.productId]: [hat4!.id, hat1!.id, hat3!.id] },
    };
    const quote = await callCore(h.core, 'videos:quote', request);
    expect(quote.credits).toBe(68);
    const before = (await callCore(h.core, 'batches:get', { id: batchId })).creditsSpent;
    const postsBefore = videoPosts().length;
    await callCore(h.core, 'videos:create', request);
    await untilFinished(h.core, batchId);

    const posts = videoPosts().slice(postsBefore);
    expect(posts).toHaveLength(2);
    // The two POSTs leave in whichever order the engine's slots take them.
    const hatPost = posts.find((post) => post.image_urls.length === 3);
    const totePost = posts.find((post) => post.image_urls.length === 1);
    const origin = await loopbackOrigin();
    expect(hatPost!.image_urls).toHaveLength(3);
    expect(hatPost!.image_urls.every((url) => url.startsWith(origin))).toBe(true);
    // Each served copy is the very file that was downloaded and verified, in the order the designer set.
    expect(await Promise.all(hatPost!.image_urls.map(sha256Of))).toEqual(
      [hat4!.id, hat1!.id, hat3!.id].map((id) => asset(id).sha256),
    );
    expect(totePost!.image_urls).toEqual([asset(tote2!.id).url]);

    const hatVideo = jobsOf(hat1!.productId, 'video')[0]!;
    const toteVideo = jobsOf(tote2!.productId, 'video')[0]!;
    expect([hatVideo.state, toteVideo.state]).toEqual(['done', 'done']);
    // What was sent is what the job row records: the intent committed before the POST.
    expect(JSON.parse(hatVideo.request!).imageUrls).toEqual(hatPost!.image_urls);
    const submitted = query<{ detail: string }>(
      "SELECT detail FROM job_events WHERE job_id = ? AND type = 'state' AND value = 'submitting'",
      hatVideo.id,
    );
    expect(JSON.parse(submitted[0]!.detail).servedCopies).toEqual(
      [hat4!.id, hat1!.id, hat3!.id].map((assetId) => ({ assetId, why: 'HTTP 410' })),
    );
    const after = await callCore(h.core, 'batches:get', { id: batchId });
    expect(after.creditsSpent - before).toBe(quote.credits);
  }, 90_000);

  it('fails a video here, sending nothing, when an expired shot is not on disk either', async () => {
    const picked = (await callCore(h.core, 'review:get', { batchId, filter: { flag: 'picked' } })).items;
    await callCore(h.core, 'review:decide', {
      batchId,
      itemIds: picked.map((item) => item.id),
      change: { flag: null },
    });
    const [mug1] = await picksOf('Mug');
    await callCore(h.core, 'review:decide', { batchId, itemIds: [mug1!.id], change: { flag: 'picked' } });
    await expire([jobsOf(mug1!.productId, 'shoot')[0]!.remote_id!], 404);
    await rm(join(libraryDir(), asset(mug1!.id).path));

    const balance = () => service.accounts().find((account) => account.type === 'personal')!.credits;
    const creditsBefore = balance();
    const postsBefore = videoPosts().length;
    await callCore(h.core, 'videos:create', {
      batchId,
      video: { ...VIDEO_10S, duration: 5, resolution: '480p' },
    });
    await untilFinished(h.core, batchId);

    const video = jobsOf(mug1!.productId, 'video')[0]!;
    expect(video.state).toBe('failed');
    expect(video.failure_code).toBe('no_working_link');
    expect(video.failure_message).toBe(
      "Shot 1 no longer answers at the service's address (HTTP 404), and its downloaded file is not in the library: download the shoot again (free) or pick another shot, then retry this video. Nothing was sent and no credit spent.",
    );
    expect(video.credits_charged).toBe(0);
    expect(video.request).toBeNull();
    expect(videoPosts().length).toBe(postsBefore);
    expect(balance()).toBe(creditsBefore);
  }, 90_000);
});
