import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_ID } from '../../../src-main/core/accounts/account-store.ts';
import { apiKeyId, ServiceClient } from '../../../src-main/core/api/index.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { startLoopbackHost } from '../../../src-main/core/hosting/loopback.ts';
import { scanInputs, toNewProduct } from '../../../src-main/core/ingest/scan.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { Engine } from '../../../src-main/core/scheduler/engine.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { canMount, type SmallDisk, smallDisk } from '../../support/small-disk.ts';

// Issue 17, no intent without a commit: the data folder's disk fills up under a running engine. Every job
// is recorded before it is sent, so the engine sends no create it could not record, says why in one
// sentence, and stops; once there is room, the queue is as it was and goes on. Needs a real full disk (a
// tmpfs, as root): a folder made read-only does not stop SQLite writing to files it has open.

const reason = canMount ? '' : ' (skipped: needs root to mount a small tmpfs)';
let sandbox: Sandbox;
let dir: string;
let disk: SmallDisk;

beforeAll(async () => {
  if (!canMount) return;
  dir = await mkdtemp(join(tmpdir(), 'adbatch-data-full-'));
  sandbox = await startSandbox({ timeScale: 0.02 });
  disk = smallDisk(dir, { sizeBytes: 16 * 1024 * 1024, freeBytes: 8 * 1024 * 1024 });
});
afterAll(async () => {
  await disk?.close();
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!canMount)(`the data folder's disk full under a running engine${reason}`, () => {
  it('sends no create it could not record, says why, and leaves the queue as it was', async () => {
    const dataDir = disk.library;
    const store = new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
    await makeProductFolders(join(dir, 'products'), 3, 1);
    const scan = await scanInputs([join(dir, 'products')], { cacheDir: join(dir, 'cache') });
    const apiKey = sandbox.accounts()[0]!.keys[0]!.key;
    const batch = store.createBatch({
      name: 'Full data folder',
      accountId: SANDBOX_ACCOUNT_ID,
      baseUrl: sandbox.url,
      keyId: apiKeyId(apiKey),
      keyHint: apiKey.slice(-4),
      sandbox: true,
      libraryDir: join(dir, 'library'),
      shoot: QUICK_SHOOT,
      video: null,
      products: scan.products.map(toNewProduct),
    });
    // Nothing left in the WAL to write into, then not a byte free.
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    await disk.fill();

    const host = await startLoopbackHost();
    const halts: string[] = [];
    const notices: string[] = [];
    try {
      await new Engine({
        store,
        batchIds: [batch.id],
        clientFor: () => new ServiceClient({ baseUrl: sandbox.url, apiKey }),
        hostFor: () => host,
        rateLimit: { limit: 60, windowMs: 3000 },
        sandboxTimeScale: 0.02,
        dataDir,
        onHalt: (message) => halts.push(message),
        onNotice: (_batchId, message) => notices.push(message),
      }).run();
    } finally {
      await host.close();
    }
    expect(halts).toEqual([
      `The disk that holds Adbatch's data folder (${dataDir}) is full. Adbatch records every job before it sends it, so it sends nothing until then. Free some space and resume.`,
    ]);
    expect(notices).toEqual([`Stopped: ${halts[0]}`]);
    expect(sandbox.requests().filter((entry) => entry.method === 'POST')).toEqual([]);
    store.db.close();

    await disk.mend();
    const reopened = new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
    try {
      expect(reopened.jobs.ofBatch(batch.id).map((job) => [job.state, job.posts])).toEqual([
        ['waiting', 0],
        ['waiting', 0],
        ['waiting', 0],
      ]);
      expect(reopened.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      reopened.db.close();
    }
  }, 60_000);
});
