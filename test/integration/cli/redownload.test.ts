import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';

// Issue 17, paid results can always be fetched again for free: the service's CDN refuses the result files,
// so the jobs end owed (paid for, not on disk), not failed; `adbatch status` says how to fetch them, and
// `adbatch redownload` does, once the files answer, with no new POST and no credits.

const PRODUCTS = 3;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-redownload-'));
  sandbox = await startSandbox({ timeScale: 0.02 });
  await makeProductFolders(join(dir, 'products'), PRODUCTS, 1);
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key });
const dataDir = () => join(dir, 'data');

function readStore<T>(read: (store: QueueStore) => T): T {
  const store = new QueueStore(openDatabase(join(dataDir(), 'adbatch.db')), Date.now);
  try {
    return read(store);
  } finally {
    store.db.close();
  }
}

describe('results the CDN refuses', () => {
  it('leave the jobs owed, and adbatch redownload fetches them once they answer, without paying again', async () => {
    const faults = new SandboxClient(sandbox.url);
    await faults.addFault({ method: 'GET', path: '/cdn', action: 'status', status: 403 });
    const run = await adbatch(
      serviceRunArgs([join(dir, 'products')], sandbox.url, {
        dataDir: dataDir(),
        library: join(dir, 'library'),
      }),
      { env: env() },
    );
    // Paid for and not on disk: the batch needs you (issue 27), not a mere partial.
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.needsYou);
    const owed = readStore((store) => {
      const [batch] = store.batches.all();
      return { batch: batch!, jobs: store.jobs.ofBatch(batch!.id) };
    });
    expect(owed.batch.status).toBe('finished');
    expect(owed.jobs.map((job) => job.state)).toEqual(Array(PRODUCTS).fill('owed'));
    expect(owed.jobs[0]!.failureMessage).toMatch(
      /^Paid for \(1 credit\) but not downloaded: the result answered HTTP 403\. Download again/,
    );

    const status = await adbatch(['status', owed.batch.id, '--data-dir', dataDir()]);
    expect(status.stdout).toContain(`adbatch redownload ${owed.jobs[0]!.id} (free)`);

    // Still refused: redownload says so and leaves them owed; nothing is created.
    const refused = await adbatch(['redownload', owed.batch.id, '--data-dir', dataDir()]);
    expect(refused.code, refused.stderr).toBe(EXIT.needsYou);
    expect(readStore((store) => store.jobs.ofBatch(owed.batch.id).map((job) => job.state))).toEqual(
      Array(PRODUCTS).fill('owed'),
    );

    await faults.clearFaults();
    const one = await adbatch(['redownload', owed.jobs[0]!.id, '--data-dir', dataDir()]);
    expect(one.code, one.stderr).toBe(EXIT.needsYou);
    expect(readStore((store) => store.jobs.ofBatch(owed.batch.id).map((job) => job.state))).toEqual([
      'done',
      'owed',
      'owed',
    ]);
    const rest = await adbatch(['redownload', owed.batch.id, '--data-dir', dataDir()]);
    expect(rest.code, rest.stdout + rest.stderr).toBe(0);
    const after = new QueueStore(openDatabase(join(dataDir(), 'adbatch.db')), Date.now);
    try {
      expect(after.jobs.ofBatch(owed.batch.id).map((job) => job.state)).toEqual(Array(PRODUCTS).fill('done'));
      // Charged once per job, nothing refunded, nothing charged again.
      expect(after.totals(owed.batch.id)).toMatchObject({ charged: PRODUCTS, refunded: 0 });
      expect(await verifyDownloads(after, owed.batch.id)).toBe(after.assets.ofBatch(owed.batch.id).length);
    } finally {
      after.db.close();
    }
    expect((await listFiles(join(dir, 'library'))).filter((file) => file.endsWith('.part'))).toEqual([]);
    expect([...acceptedPostsBySource(sandbox).values()]).toEqual(Array(PRODUCTS).fill(1));

    const nothing = await adbatch(['redownload', owed.batch.id, '--data-dir', dataDir()]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('owes no results: every paid result is on disk');

    // A result altered in place, its size the same (a stray write, a failing disk): the disk's bytes are
    // read, not the database's word; it is fetched again, free.
    const [shot] = readStore((store) => store.assets.ofBatch(owed.batch.id));
    const file = join(dir, 'library', shot!.path);
    const handle = await open(file, 'r+');
    await handle.write(Buffer.alloc(512, 0x5a), 0, 512, Math.floor(shot!.bytes! / 2));
    await handle.close();
    const mended = await adbatch(['redownload', owed.batch.id, '--data-dir', dataDir()]);
    expect(mended.code, mended.stdout + mended.stderr).toBe(0);
    // Under the batch's name, as every notice is.
    expect(mended.stderr.split('\n')).toContain(
      `${owed.batch.name}: 1 result was not on disk as downloaded (gone, cut short or changed since): downloading again, free.`,
    );
    readStore((store) => {
      expect(store.totals(owed.batch.id)).toMatchObject({ charged: PRODUCTS, refunded: 0 });
    });
    const verified = new QueueStore(openDatabase(join(dataDir(), 'adbatch.db')), Date.now);
    try {
      expect(await verifyDownloads(verified, owed.batch.id)).toBe(
        verified.assets.ofBatch(owed.batch.id).length,
      );
    } finally {
      verified.db.close();
    }
    expect([...acceptedPostsBySource(sandbox).values()]).toEqual(Array(PRODUCTS).fill(1));
  }, 120_000);
});
