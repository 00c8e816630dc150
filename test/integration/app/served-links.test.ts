import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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
  refusalOf,
  untilFinished,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { PRODUCT_PHOTOS, type StaticServer, writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';

// Issue 12, "the service gets working links only": before a video's POST each of its shots' result URLs is
// asked whether it still answers; one that does not is replaced by the downloaded, verified file served from
// the batch's photo host (here the loopback host: the service runs on this machine). The sandbox expires
// result URLs on request (POST /_sandbox/results/expire) and fetches every input, so a video that completes
// was made from links that worked.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let photos: StaticServer;
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

async function unpickAll(): Promise<void> {
  const picked = (await callCore(h.core, 'review:get', { batchId, filter: { flag: 'picked' } })).items;
  if (picked.length === 0) return;
  await callCore(h.core, 'review:decide', {
    batchId,
    resultIds: picked.map((item) => item.id),
    change: { flag: null },
  });
}

beforeAll(async () => {
  harness = await startStudioHarness({ videoRenderer: 'bundled' });
  ({ h, service, photos } = harness);
  batchId = await finishedBatch(h.core, {
    inputs: [await writeCatalog(join(h.dir, 'links.csv'), photos, ['hat', 'tote', 'mug'])],
    accountId: harness.studio.id,
    shoot: { ...QUICK_SHOOT, shots: 4 },
    name: 'Links',
  });
}, 90_000);
afterAll(() => harness?.close());

describe('working links for videos from the picks', () => {
  it('sends served copies in the picked order where the result URLs expired, and the URLs that answer as they are', async () => {
    const [hat1, , hat3, hat4] = await picksOf('Hat');
    const [, tote2] = await picksOf('Tote');
    await pickResults(h.core, batchId, [hat1!.id, hat3!.id, hat4!.id, tote2!.id]);
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
    await unpickAll();
    const [mug1] = await picksOf('Mug');
    await pickResults(h.core, batchId, [mug1!.id]);
    await expire([jobsOf(mug1!.productId, 'shoot')[0]!.remote_id!], 404);
    await rm(join(libraryDir(), asset(mug1!.id).path));

    const balance = () => harness.credits();
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

/** A real logo: a 240x96 PNG wordmark-shaped block with transparency. */
async function makeLogo(path: string): Promise<Buffer> {
  const png = await sharp({
    create: { width: 240, height: 96, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 0.9 } },
  })
    .png()
    .toBuffer();
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, png);
  return png;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('a logo from a file on this computer', () => {
  it('is kept in the data folder under its sha256 and served to the service, which fetches it', async () => {
    await unpickAll();
    const [tote1] = await picksOf('Tote');
    await pickResults(h.core, batchId, [tote1!.id]);
    const original = join(h.dir, 'brand', 'logo.png');
    const logo = await makeLogo(original);
    const video = { ...VIDEO_10S, duration: 5 as const, resolution: '480p' as const, logoFile: original };

    const quote = await callCore(h.core, 'videos:quote', { batchId, video });
    expect(quote.credits).toBe(9);
    const postsBefore = videoPosts().length;
    await callCore(h.core, 'videos:create', { batchId, video });
    // The original may move once the videos are made: the batch uses its copy.
    await rm(original);
    await untilFinished(h.core, batchId);

    const copy = join(h.dir, 'data', 'logos', sha256(logo).slice(0, 2), `${sha256(logo)}.png`);
    expect((await readFile(copy)).equals(logo)).toBe(true);
    const [post] = videoPosts().slice(postsBefore);
    expect(post!.logo_url!.startsWith(await loopbackOrigin())).toBe(true);
    expect(await sha256Of(post!.logo_url!)).toBe(sha256(logo));
    // The sandbox fetches logo_url and fails a video whose logo it cannot read: this one was made.
    const made = jobsOf(tote1!.productId, 'video').at(-1)!;
    expect(made.state).toBe('done');
    expect(JSON.parse(made.request!).logoUrl).toBe(post!.logo_url);
  }, 90_000);

  it('refuses a logo file that is missing, not an image, too small, or given with a URL', async () => {
    const base = { ...VIDEO_10S, duration: 5 as const, resolution: '480p' as const };
    const missing = join(h.dir, 'brand', 'gone.png');
    expect(
      (await refusalOf(h.core, 'videos:quote', { batchId, video: { ...base, logoFile: missing } })).message,
    ).toBe(`The logo gone.png is not there (${missing}).`);
    await mkdir(join(h.dir, 'brand'), { recursive: true });
    const text = join(h.dir, 'brand', 'notes.png');
    await writeFile(text, 'not a logo\n');
    expect(
      (await refusalOf(h.core, 'videos:quote', { batchId, video: { ...base, logoFile: text } })).message,
    ).toBe('The logo notes.png is not a PNG, JPEG or WebP image (it is text).');
    const tiny = join(h.dir, 'brand', 'tiny.png');
    await writeFile(
      tiny,
      await sharp({ create: { width: 40, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    expect(
      (await refusalOf(h.core, 'videos:quote', { batchId, video: { ...base, logoFile: tiny } })).message,
    ).toBe('The logo tiny.png is 40×8: a logo needs at least 16 pixels on each side.');
    const both = await refusalOf(h.core, 'videos:quote', {
      batchId,
      video: { ...base, logoFile: tiny, logoUrl: 'https://example.com/logo.png' },
    });
    expect(both.code).toBe('bad_request');
    expect(both.message).toMatch(/a logo is a URL or a file, not both/);
    expect(
      (await refusalOf(h.core, 'videos:quote', { batchId, video: { ...base, logoFile: 'logo.png' } })).code,
    ).toBe('bad_request');
  });

  it('adbatch videos --logo takes a file from the cwd, or a URL', async () => {
    const env = harness.cliEnv();
    const dataDir = join(h.dir, 'data');
    const brand = join(h.dir, 'brand');
    await makeLogo(join(brand, 'mark.png'));
    const args = ['videos', batchId, '--from', 'picked', '--video', '5s/480p', '--data-dir', dataDir];
    const fromFile = await adbatch([...args, '--logo', 'mark.png'], { env, cwd: brand });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toContain('Add --yes to make these videos.');
    const missing = await adbatch([...args, '--logo', 'nowhere.png'], { env, cwd: brand });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`The logo nowhere.png is not there (${join(brand, 'nowhere.png')}).`);
    const fromUrl = await adbatch([...args, '--logo', photos.urlOf(PRODUCT_PHOTOS.hat)], { env, cwd: brand });
    expect(fromUrl.code, fromUrl.stderr).toBe(0);
  }, 60_000);
});
