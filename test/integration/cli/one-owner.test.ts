import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { QueueOwnerView } from '../../../src-main/shared/models.ts';
import { startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN, adbatch, runOnSandbox, sandboxRunArgs } from '../../support/cli.ts';
import { callCore, startCoreHarness } from '../../support/core-harness.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { until } from '../../support/until.ts';

// Guarantee 7: one owner per queue. Two `adbatch resume` at once on one data folder (as when a script runs
// beside another), and the app beside the CLI: one drives, the other says who does, and nothing paid for
// is lost or paid twice.

const PRODUCTS = 10;
let sandbox: Sandbox;
let dir: string;
let products: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-owner-'));
  sandbox = await startSandbox({ timeScale: 0.05, rateLimit: '60/6s', videoRenderer: 'bundled' });
  products = join(dir, 'products');
  await makeProductFolders(products, PRODUCTS);
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const apiKey = () => sandbox.accounts()[0]!.keys[0]!.key;

const start = (args: string[]) =>
  startChild([ADBATCH_BIN, ...args], { ...process.env, ADBATCH_API_KEY: apiKey() });

describe('one engine per data folder', () => {
  it('two adbatch resume at once: one drives, the other says who does; nothing paid twice or lost', async () => {
    const dataDir = join(dir, 'two-resumes', 'data');
    const library = join(dir, 'two-resumes', 'library');
    const common = ['--data-dir', dataDir, '--rate-limit', '60/6s', '--library', library];
    const first = start([
      'run',
      products,
      '--base-url',
      sandbox.url,
      '--style',
      'classic',
      '--shots',
      '1',
      '--video',
      '5s/480p',
      '--yes',
      ...common,
    ]);
    await first.waitFor(/Batch b_\w+ started/);
    // `adbatch status` only looks: it says the batch runs while the run drives it, and that nothing does
    // once the run is gone (it once said "running … waiting on the service" then too).
    const status = async () => (await adbatch(['status', '--data-dir', dataDir])).stdout;
    const statusJson = async () =>
      JSON.parse((await adbatch(['status', '--data-dir', dataDir, '--json'])).stdout) as {
        status: string;
        drivenBy: string | null;
      }[];
    expect(await status()).toMatch(/^b_\w+ {2}running {2}/);
    expect(await statusJson()).toMatchObject([
      { status: 'running', drivenBy: `adbatch run (pid ${first.process.pid})` },
    ]);
    await until(() => sandbox.requests().filter((entry) => entry.method === 'POST').length >= 3);
    await first.kill();
    expect(await status()).toMatch(
      /^b_\w+ {2}interrupted {2}.*\n {4}.*; nothing drives it now: adbatch resume \(or the app\) goes on with it\n/,
    );
    // The JSON keeps the core's status, and says that nothing drives it.
    expect(await statusJson()).toMatchObject([{ status: 'running', drivenBy: null }]);

    const resumes = [start(['resume', ...common.slice(0, 4)]), start(['resume', ...common.slice(0, 4)])];
    const codes = await Promise.all(resumes.map((resume) => resume.exited));
    const refused = resumes.filter((_, index) => codes[index] === 5);
    const driver = resumes.find((_, index) => codes[index] !== 5);
    expect(refused, resumes.map((resume) => resume.output()).join('\n---\n')).toHaveLength(1);
    expect(refused[0]!.output()).toMatch(
      new RegExp(
        `adbatch resume \\(pid ${driver!.process.pid}\\) is running the batches in .+: quit it or wait`,
      ),
    );
    // Needs you when the kill left a create's outcome unknown.
    expect([EXIT.ok, EXIT.partial, EXIT.needsYou], driver!.output()).toContain(
      codes[resumes.indexOf(driver!)],
    );

    const store = new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
    try {
      const [batch] = store.batches.all();
      const jobs = store.jobs.ofBatch(batch!.id);
      expect(jobs).toHaveLength(PRODUCTS * 2);
      expect([...acceptedPostsBySource(sandbox).values()].every((count) => count === 1)).toBe(true);
      // Only a kill between an intent's commit and its answer may leave a job unknown; nothing the service
      // completed ends failed.
      for (const job of jobs) {
        expect(job.state, `${job.kind} ${job.failureMessage ?? ''}`).not.toBe('failed');
        expect(['done', 'outcome_unknown', 'skipped']).toContain(job.state);
      }
      expect(await verifyDownloads(store, batch!.id)).toBe(store.assets.ofBatch(batch!.id).length);
      expect((await listFiles(library)).filter((file) => file.endsWith('.part'))).toEqual([]);
    } finally {
      store.db.close();
    }
  }, 180_000);

  it('the app and the CLI: the CLI is refused while the app drives; the app waits for the CLI, then takes over', async () => {
    const root = join(dir, 'app-and-cli');
    const dataDir = join(root, 'data');
    const app = await startCoreHarness({ dir: root });
    const where = { dataDir, library: join(root, 'library') };
    const refused = await runOnSandbox([products], where);
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain(`Adbatch (pid ${process.pid}) is running the batches in ${dataDir}`);
    await app.close();

    // The CLI drives a batch; an app opened meanwhile shows who holds the queue and takes it when freed.
    // Slower than the default sandbox run, so that the app opened meanwhile finds it still running.
    const cli = start(sandboxRunArgs([products], where, ['--time-scale', '0.05']));
    await cli.waitFor(/Batch b_\w+ started/);
    const observer = await startCoreHarness({ dir: root });
    try {
      const owners: QueueOwnerView[] = [];
      observer.core.events.on('queue:owner', (owner) => owners.push(owner));
      const info = await callCore(observer.core, 'app:info');
      expect(info.queue).toEqual({
        driving: false,
        heldBy: `adbatch run (pid ${cli.process.pid})`,
        fault: null,
        databaseDamaged: false,
      });
      // What the CLI does shows in the app as it happens, read from the shared database.
      const [batch] = await callCore(observer.core, 'batches:list');
      expect(batch?.jobs).toBe(PRODUCTS);
      expect(await cli.exited).toBe(0);
      await until(() => owners.some((owner) => owner.driving));
      expect((await callCore(observer.core, 'app:info')).queue).toEqual({
        driving: true,
        heldBy: null,
        fault: null,
        databaseDamaged: false,
      });
    } finally {
      await observer.close();
    }
  }, 180_000);
});
