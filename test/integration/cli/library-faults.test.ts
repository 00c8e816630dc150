import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type SmallDisk, smallDisk } from '../../support/small-disk.ts';

// Issue 17, a local fault pauses, it never fails: the library on a nearly full disk (a real tmpfs as
// root; otherwise a folder the OS refuses to write in). The batch pauses with the reason in words, nothing
// paid for is marked failed, and once the space is back `adbatch resume` downloads what is owed without a
// second POST.

const PRODUCTS = 4;
let sandbox: Sandbox;
let dir: string;
let disk: SmallDisk;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-library-faults-'));
  sandbox = await startSandbox({ timeScale: 0.02 });
  await makeProductFolders(join(dir, 'products'), PRODUCTS, 1);
  disk = smallDisk(dir, { sizeBytes: 64 * 1024 * 1024, freeBytes: 48 * 1024 });
  console.log(`library faults: the library is on a ${disk.kind}`);
});
afterAll(async () => {
  await disk?.close();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key });

describe('the library on a disk that is full', () => {
  it('pauses the batch with the reason, fails nothing, and resume downloads what is owed without paying again', async () => {
    const run = await adbatch(
      serviceRunArgs([join(dir, 'products')], sandbox.url, {
        dataDir: join(dir, 'data'),
        library: disk.library,
      }),
      { env: env() },
    );
    const output = run.stdout + run.stderr;
    expect(run.code, output).toBe(6);
    expect(output).toMatch(
      disk.kind === 'tmpfs'
        ? /The disk that holds the library \(.+\) is full: free about \d+ MB and resume\./
        : /Adbatch may not write in the library folder \(.+\): allow it, or choose another library, and resume\./,
    );
    expect(output).not.toMatch(/ENOSPC|EACCES|at .+\.ts:\d+/);

    const store = new QueueStore(openDatabase(join(dir, 'data', 'adbatch.db')), Date.now);
    try {
      const [batch] = store.batches.all();
      expect(batch).toMatchObject({ status: 'paused', statusReason: 'library' });
      const jobs = store.jobs.ofBatch(batch!.id);
      expect(jobs.filter((job) => job.state === 'failed')).toEqual([]);
      // Every shoot was paid for; what could not be written is owed, not lost.
      expect(jobs.every((job) => job.acceptedAt !== null)).toBe(true);
      expect(jobs.some((job) => job.state === 'downloading')).toBe(true);
      expect(store.assets.ofBatch(batch!.id).filter((asset) => asset.state === 'failed')).toEqual([]);
      // Polls stopped once each job completed: nothing was asked of the service in vain.
      const polls = sandbox
        .requests()
        .filter((entry) => entry.method === 'GET' && entry.path.startsWith('/v1/shoots/'));
      expect(polls.length).toBeLessThanOrEqual(jobs.reduce((sum, job) => sum + job.polls, 0));
    } finally {
      store.db.close();
    }

    await disk.mend();
    const resumed = await adbatch(['resume', '--data-dir', join(dir, 'data')], { env: env() });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);

    const after = new QueueStore(openDatabase(join(dir, 'data', 'adbatch.db')), Date.now);
    try {
      const [batch] = after.batches.all();
      expect(batch!.status).toBe('finished');
      expect(after.jobs.ofBatch(batch!.id).map((job) => job.state)).toEqual(Array(PRODUCTS).fill('done'));
      expect(await verifyDownloads(after, batch!.id)).toBe(after.assets.ofBatch(batch!.id).length);
    } finally {
      after.db.close();
    }
    expect((await listFiles(disk.library)).filter((file) => file.endsWith('.part'))).toEqual([]);
    expect([...acceptedPostsBySource(sandbox).values()]).toEqual(Array(PRODUCTS).fill(1));
  }, 120_000);
});

describe('the data folder on a disk that is full from the start', () => {
  it('refuses in one sentence, before anything is sent', async () => {
    const full = smallDisk(join(dir, 'data-disk'), { sizeBytes: 4 * 1024 * 1024, freeBytes: 0 });
    try {
      if (full.kind === 'tmpfs') await full.fill();
      const before = sandbox.requests().length;
      const run = await adbatch(
        serviceRunArgs([join(dir, 'products')], sandbox.url, {
          dataDir: full.library,
          library: join(dir, 'other-library'),
        }),
        { env: env() },
      );
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr.trim()).toBe(
        full.kind === 'tmpfs'
          ? `adbatch: The disk that holds Adbatch's data folder (${full.library}) is full. Adbatch records every job before it sends it, so it sends nothing until then. Free some space and resume.`
          : `adbatch: Adbatch may not write in its data folder (${full.library}). Adbatch records every job before it sends it, so it sends nothing until then. Allow it, or set ADBATCH_DATA_DIR to another folder, and resume.`,
      );
      expect(sandbox.requests().slice(before)).toEqual([]);
    } finally {
      await full.close();
    }
  }, 60_000);
});
