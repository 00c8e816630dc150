import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-library-deleted-'));
  sandbox = await startSandbox({ timeScale: 0.05, videoRenderer: 'bundled' });
  await makeProductFolders(join(dir, 'products'), 1, 1);
});
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
});
