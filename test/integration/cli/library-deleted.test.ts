import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { killChildren, startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN, adbatch, serviceRunArgs } from '../../support/cli.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { until } from '../../support/until.ts';

// Issue 17, the library deleted while a batch runs (its shoot saved, its video not yet): `adbatch run`
// does not start a second library where the first was; it pauses, says the folder is gone, and exits 6.
// `adbatch redownload <batch>` makes the library again and downloads everything, the lost shoot included,
// without a new POST.
// Issue 27, recovery does what it says: with several shoots of four shots, the library deleted while some
// were still downloading, `redownload` looks at the disk (not at what the database remembers) and brings back
// every file; and `resume` after the folder is made again (empty) goes on, making the batch's folders again.

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-library-deleted-'));
  sandbox = await startSandbox({ timeScale: 0.05, videoRenderer: 'bundled' });
  await makeProductFolders(join(dir, 'products'), 1, 1);
  await makeProductFolders(join(dir, 'six'), SIX, 1);
});

const SIX = 6;
const SHOTS = 4;

/** Shots (not thumbnails) on disk under the library. */
async function shotsIn(library: string): Promise<string[]> {
  return (await listFiles(library)).filter(
    (file) => /shot-\d\.jpg$/.test(file) && !file.includes('thumbnails'),
  );
}

/**
 * Starts a batch of six four-shot shoots and deletes its library as soon as its first shots are saved,
 * while others are still downloading: the run pauses for its library and exits 6, nothing left on disk.
 */
async function deleteLibraryMidBatch(name: string, env: NodeJS.ProcessEnv) {
  const where = { dataDir: join(dir, `${name}-data`), library: join(dir, `${name}-library`) };
  const run = startChild(
    [ADBATCH_BIN, ...serviceRunArgs([join(dir, 'six')], sandbox.url, where, ['--shots', String(SHOTS)])],
    env,
  );
  let saved = 0;
  await until(() => {
    void shotsIn(where.library).then((files) => {
      saved = files.length;
    });
    return saved > 0;
  });
  // Downloads still write while the folder is removed, as with `rm -rf` in a terminal: tried again until gone.
  await rm(where.library, { recursive: true, force: true, maxRetries: 20, retryDelay: 20 });
  const code = await run.exited;
  expect(code, run.output()).toBe(6);
  // rm removes the batch's folder before the library itself: the run may notice either first.
  expect(run.output()).toMatch(/(is gone|is no longer in the library): .+ or download it all again, free\./);
  expect(await listFiles(where.library)).toEqual([]);
  const batchId = /Batch (b_\w+) started/.exec(run.output())![1]!;
  return { where, batchId };
}

/** Every job done, every result on disk, whole and decodable, and each shoot POSTed once. */
async function expectAllBack(
  where: { dataDir: string; library: string },
  batchId: string,
  postsBefore: number,
) {
  const store = new QueueStore(openDatabase(join(where.dataDir, 'adbatch.db')), Date.now);
  try {
    expect(store.jobs.ofBatch(batchId).map((job) => job.state)).toEqual(Array(SIX).fill('done'));
    const assets = store.assets.ofBatch(batchId);
    expect(assets.filter((asset) => asset.kind === 'image')).toHaveLength(SIX * SHOTS);
    expect(await verifyDownloads(store, batchId)).toBe(assets.length);
    expect(store.totals(batchId)).toMatchObject({ refunded: 0 });
  } finally {
    store.db.close();
  }
  expect(await shotsIn(where.library)).toHaveLength(SIX * SHOTS);
  expect(postsOf(sandbox)).toBe(postsBefore);
  expect((await listFiles(where.library)).filter((file) => file.endsWith('.part'))).toEqual([]);
}

const postsOf = (service: Sandbox) =>
  service.requests().filter((entry) => entry.method === 'POST' && entry.path.startsWith('/v1/')).length;
afterAll(async () => {
  killChildren();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the library deleted while a batch runs', () => {
  it('pauses the run; redownload makes it again and fetches everything, free', async () => {
    const env = { ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key };
    const where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
    const run = startChild(
      [ADBATCH_BIN, ...serviceRunArgs([join(dir, 'products')], sandbox.url, where, ['--video', '5s/480p'])],
      env,
    );
    let shots: string[] = [];
    await until(() => {
      void listFiles(where.library).then((files) => {
        shots = files.filter((file) => file.endsWith('shot-1.jpg') && !file.includes('thumbnails'));
      });
      return shots.length === 1;
    });
    await rm(where.library, { recursive: true, force: true });
    const code = await run.exited;
    expect(code, run.output()).toBe(6);
    expect(run.output()).toMatch(/The library folder \(.+\) is gone: .+ or download it all again, free\./);
    expect(await listFiles(where.library)).toEqual([]);

    const batchId = /Batch (b_\w+) started/.exec(run.output())![1]!;
    const again = await adbatch(['redownload', batchId, '--data-dir', where.dataDir], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    const store = new QueueStore(openDatabase(join(where.dataDir, 'adbatch.db')), Date.now);
    try {
      expect(store.jobs.ofBatch(batchId).map((job) => job.state)).toEqual(['done', 'done']);
      expect(await verifyDownloads(store, batchId)).toBe(store.assets.ofBatch(batchId).length);
      expect(store.totals(batchId)).toMatchObject({ refunded: 0 });
    } finally {
      store.db.close();
    }
    expect([...acceptedPostsBySource(sandbox).values()]).toEqual([1, 1]);
    expect((await listFiles(where.library)).filter((file) => file.endsWith('.part'))).toEqual([]);
  }, 90_000);

  it('redownload checks the disk and brings back every file of a library deleted mid-batch, free', async () => {
    const env = { ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key };
    const { where, batchId } = await deleteLibraryMidBatch('redownload', env);
    const posts = postsOf(sandbox);

    const again = await adbatch(['redownload', batchId, '--data-dir', where.dataDir], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('Downloading again what');
    await expectAllBack(where, batchId, posts);
  }, 120_000);

  it('resume goes on once the library folder is made again, making the batch folders again', async () => {
    const env = { ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key };
    const { where, batchId } = await deleteLibraryMidBatch('resume', env);
    const posts = postsOf(sandbox);

    await mkdir(where.library);
    const resumed = await adbatch(['resume', batchId, '--data-dir', where.dataDir], { env });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    await expectAllBack(where, batchId, posts);
  }, 120_000);

  it('redownload says which results the service no longer serves, with the credits paid for them', async () => {
    const env = { ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key };
    const where = { dataDir: join(dir, 'gone-data'), library: join(dir, 'gone-library') };
    await makeProductFolders(join(dir, 'gone'), 1, 1);
    const run = await adbatch(serviceRunArgs([join(dir, 'gone')], sandbox.url, where), { env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const batchId = /Batch (b_\w+) started/.exec(run.stdout + run.stderr)![1]!;
    const expired = await fetch(`${sandbox.url}/_sandbox/results/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 410 }),
    });
    expect(expired.status).toBe(200);
    await rm(where.library, { recursive: true });

    const again = await adbatch(['redownload', batchId, '--data-dir', where.dataDir], { env });
    // Paid for and not on disk: the batch needs its person.
    expect(again.code, again.stdout + again.stderr).toBe(EXIT.needsYou);
    expect(again.stderr).toMatch(
      /The service no longer serves the results of one job \(the shoot of product-01\): 1 credit was paid for them, and they cannot be downloaded again\./,
    );
  }, 60_000);
});
