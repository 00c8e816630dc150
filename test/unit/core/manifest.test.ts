import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchFolder, productFolder } from '../../../src-main/core/library.ts';
import { buildManifest, writeManifest } from '../../../src-main/core/manifest.ts';
import type { Batch } from '../../../src-main/core/queue/types.ts';
import { fixturePhotos } from '../../support/product-folders.ts';
import {
  newBatch,
  products,
  SHOOT_PRICE,
  shootAndVideo,
  storePerTest,
  submitAndAccept,
  T0,
  VIDEO_PRICE,
} from './queue/store-fixtures.ts';

const ctx = storePerTest();
let library: string;
beforeEach(async () => {
  library = join(ctx.dir, 'library');
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Two products with a video each. Product 1: shoot done (two photos on disk), video failed by the service
 * (refunded). Product 2: shoot's outcome unknown, its video skipped.
 */
async function smallBatch(): Promise<Batch> {
  const batch = ctx.store.createBatch(
    newBatch({ name: 'Autumn: drop 1', libraryDir: library, products: products(2) }),
  );
  const one = shootAndVideo(ctx, batch.id, 0);
  const two = shootAndVideo(ctx, batch.id, 1);
  const productDir = `${batchFolder(batch)}/${productFolder(ctx.store.batches.products(batch.id)[0]!)}`;

  submitAndAccept(ctx, one.shoot.id, { remoteId: 'shoot_1', balanceAfter: 92 });
  ctx.clock.now += 5_000;
  ctx.store.jobs.recordPoll(one.shoot.id, 'processing', ctx.clock.now + 5_000);
  ctx.store.jobs.deferPoll(one.shoot.id, ctx.clock.now + 10_000, 'HTTP 503');
  ctx.clock.now += 5_000;
  ctx.store.jobs.completeRemote(one.shoot.id, 'completed', [
    { kind: 'image', idx: 0, url: 'http://results.invalid/1.png', path: `${productDir}/shot-1.png` },
    { kind: 'image', idx: 1, url: 'http://results.invalid/2.png', path: `${productDir}/shot-2.png` },
  ]);
  const photos = await fixturePhotos();
  for (const [index, asset] of ctx.store.assets.ofJob(one.shoot.id).entries()) {
    const file = join(library, asset.path);
    await mkdir(dirname(file), { recursive: true });
    await copyFile(photos[index]!, file);
    const bytes = await readFile(file);
    ctx.store.assets.downloaded(asset.id, bytes.length, sha256(bytes));
  }
  submitAndAccept(ctx, one.video.id, { remoteId: 'video_1', balanceAfter: 58 });
  ctx.clock.now += 60_000;
  ctx.store.jobs.failRemote(one.video.id, 'failed', { code: 'render_failed', message: 'The render failed.' });

  ctx.store.jobs.beginSubmit(two.shoot.id, { productImageUrls: [] });
  ctx.store.jobs.markOutcomeUnknown(two.shoot.id, { code: 'timeout', message: 'No answer within 60 s.' });
  return ctx.store.batches.get(batch.id)!;
}

describe('buildManifest', () => {
  it('lists every product, job, ledger entry and file, with the credits quoted, charged, refunded and at stake', async () => {
    const batch = await smallBatch();
    const manifest = buildManifest(ctx.store, batch.id);

    expect(manifest.manifest_version).toBe(1);
    expect(manifest.batch).toEqual({
      id: batch.id,
      name: 'Autumn: drop 1',
      created_at: new Date(T0).toISOString(),
      service: batch.baseUrl,
      key: batch.keyHint,
      sandbox: true,
      status: 'running',
      status_reason: null,
      shoot: batch.shoot,
      video: batch.video,
    });
    expect(manifest.credits).toEqual({
      quoted: 2 * (SHOOT_PRICE + VIDEO_PRICE),
      charged: SHOOT_PRICE + VIDEO_PRICE,
      refunded: VIDEO_PRICE,
      spent: SHOOT_PRICE,
      at_stake: SHOOT_PRICE,
    });

    expect(manifest.products.map((product) => [product.name, product.source, product.photos])).toEqual(
      products(2).map((product) => [
        product.name,
        product.sourceDir,
        product.photos.map((photo) => photo.path ?? photo.url),
      ]),
    );
    const jobs = manifest.products.flatMap((product) => product.jobs);
    expect(jobs.map((job) => job.id).sort()).toEqual(
      ctx.store.jobs
        .ofBatch(batch.id)
        .map((job) => job.id)
        .sort(),
    );

    const [shoot, video] = manifest.products[0]!.jobs;
    expect(shoot).toMatchObject({
      kind: 'shoot',
      state: 'done',
      remote_id: 'shoot_1',
      remote_status: 'completed',
      price: SHOOT_PRICE,
      charged: SHOOT_PRICE,
      refunded: 0,
      posts: 1,
      polls: 3,
      failure: null,
    });
    // The history holds state and remote-status changes, not errors.
    expect(shoot!.history.map((entry) => Object.entries(entry).find(([key]) => key !== 'at'))).toEqual([
      ['state', 'submitting'],
      ['state', 'running'],
      ['remote_status', 'queued'],
      ['remote_status', 'processing'],
      ['state', 'downloading'],
      ['remote_status', 'completed'],
      ['state', 'done'],
    ]);
    for (const entry of shoot!.history) expect(entry.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(video).toMatchObject({
      kind: 'video',
      state: 'failed',
      remote_id: 'video_1',
      charged: VIDEO_PRICE,
      refunded: VIDEO_PRICE,
      failure: { code: 'render_failed', message: 'The render failed.' },
      files: [],
    });
    const [unknown, skipped] = manifest.products[1]!.jobs;
    expect(unknown).toMatchObject({
      kind: 'shoot',
      state: 'outcome_unknown',
      remote_id: null,
      charged: 0,
      posts: 1,
    });
    expect(unknown!.failure).toEqual({ code: 'timeout', message: 'No answer within 60 s.' });
    expect(skipped).toMatchObject({ kind: 'video', state: 'skipped', failure: { code: 'shoot_failed' } });

    expect(manifest.ledger).toEqual([
      { jobId: shoot!.id, attempt: 1, at: expect.any(String), type: 'charge', credits: SHOOT_PRICE },
      { jobId: video!.id, attempt: 1, at: expect.any(String), type: 'charge', credits: VIDEO_PRICE },
      { jobId: video!.id, attempt: 1, at: expect.any(String), type: 'refund', credits: VIDEO_PRICE },
      { jobId: unknown!.id, attempt: 1, at: expect.any(String), type: 'at_stake', credits: SHOOT_PRICE },
    ]);
    expect(manifest.ledger.map((entry) => Date.parse(entry.at))).toEqual(
      ctx.store.ledger.entries({ batchId: batch.id }).map((entry) => entry.at),
    );

    // Files are listed relative to the manifest (the batch folder), and are there with the recorded hashes.
    const product = productFolder(ctx.store.batches.products(batch.id)[0]!);
    expect(shoot!.files.map((file) => [file.kind, file.path, file.state, file.error])).toEqual([
      ['image', `${product}/shot-1.png`, 'done', null],
      ['image', `${product}/shot-2.png`, 'done', null],
    ]);
    const batchDir = join(library, batchFolder(batch));
    for (const file of shoot!.files) {
      const bytes = await readFile(join(batchDir, file.path));
      expect(file.bytes).toBe(bytes.length);
      expect(file.sha256).toBe(sha256(bytes));
    }
  });

  it('refuses a batch it does not know', () => {
    expect(() => buildManifest(ctx.store, 'b_missing')).toThrow(/no batch/);
  });
});

describe('writeManifest', () => {
  it('writes manifest.json in the batch folder, atomically, and replaces it whole on the next write', async () => {
    const batch = await smallBatch();
    const file = (await writeManifest(ctx.store, batch.id))!;
    const batchDir = join(library, batchFolder(batch));
    expect(file).toBe(join(batchDir, 'manifest.json'));
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(buildManifest(ctx.store, batch.id))));
    expect((await readdir(batchDir)).filter((name) => name.endsWith('.part'))).toEqual([]);

    // A stale .part from a crash mid-write does not survive the next write, and the old manifest is replaced by a
    // rename (a new file), never rewritten in place where a crash could leave half of it.
    await writeFile(`${file}.part`, '{"half":');
    const before = await stat(file);
    ctx.store.batches.setStatus(batch.id, 'finished');
    await writeManifest(ctx.store, batch.id);
    const after = await stat(file);
    expect(after.ino).not.toBe(before.ino);
    expect(JSON.parse(await readFile(file, 'utf8')).batch.status).toBe('finished');
    expect((await readdir(batchDir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('writes nothing where the results are not: a manifest alone would start a second library', async () => {
    const batch = await smallBatch();
    await rm(library, { recursive: true, force: true });
    expect(await writeManifest(ctx.store, batch.id)).toBeNull();
    expect(existsSync(library)).toBe(false);
  });

  it('creates the batch folder when nothing has been downloaded yet', async () => {
    const batch = ctx.store.createBatch(
      newBatch({ libraryDir: library, video: null, products: products(1) }),
    );
    const file = (await writeManifest(ctx.store, batch.id))!;
    const manifest = JSON.parse(await readFile(file, 'utf8'));
    expect(manifest.credits).toEqual({ quoted: SHOOT_PRICE, charged: 0, refunded: 0, spent: 0, at_stake: 0 });
    expect(manifest.batch.video).toBeNull();
    expect(manifest.products[0].jobs).toHaveLength(1);
    expect(manifest.ledger).toEqual([]);
  });
});
