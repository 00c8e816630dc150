import { copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { callHandler } from '../../../src-main/core/app/dispatch.ts';
import { latestBackup } from '../../../src-main/core/db/backups.ts';
import { quoteVideo } from '../../../src-main/core/pricing.ts';
import { createMcpServer } from '../../../src-main/mcp/server.ts';
import { localMinuteWords } from '../../../src-main/shared/local-time.ts';
import type { BatchDetail } from '../../../src-main/shared/models.ts';
import { JOB_STATES } from '../../../src-main/shared/vocabulary.ts';
import { adbatch } from '../../support/cli.ts';
import { type CoreHarness, callCore, startCoreHarness, untilFinished } from '../../support/core-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// A restored backup cannot pay twice (issue 27, point 7, as reviewed). The backup is taken as a batch starts;
// what it shows unsent may have been sent after it. Through the app's own path (createCore and its handler
// map) on a real sandbox whose request log outlives every core: batch "Spring" (a shoot and a video per
// product) is sent until its shoots are being made, then batch "Summer" starts and the backup is taken, with
// Spring's videos not sent yet; both batches finish. The backup is copied over adbatch.db as a user restores
// it, and core opens it: Spring is paused, and no POST reaches the service until a person resumes it.

/** The engine's time: its deadlines (10 min at least, 30 s here) outlast the held polls below by far. */
const CORE_TIME_SCALE = 0.05;
/** The sandbox's: its renders quick. */
const SANDBOX_TIME_SCALE = 0.02;

let dir: string;
let service: DefaultHarness;
let h: CoreHarness | null = null;
let spring: string;
let summer: string;
let backup: string;

const dataDir = () => join(dir, 'data');
const database = () => join(dataDir(), 'adbatch.db');

function openCore(): Promise<CoreHarness> {
  return startCoreHarness({
    dir,
    timeScale: CORE_TIME_SCALE,
    sandbox: { url: service.sandbox.url, apiKey: service.keys.personal },
  });
}

/** The creates that reached the service, by kind. */
function creates(): { shoots: number; videos: number } {
  const posts = service.sandbox.requests().filter((entry) => entry.method === 'POST');
  return {
    shoots: posts.filter((entry) => entry.path === '/v1/shoots').length,
    videos: posts.filter((entry) => entry.path === '/v1/videos').length,
  };
}

function detailOf(core: CoreHarness, id: string): Promise<BatchDetail> {
  return callCore(core.core, 'batches:get', { id });
}

/** Waits until the batch's jobs stand in these numbers, as its page reads them. */
async function untilStates(core: CoreHarness, id: string, states: BatchDetail['states']): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = (await detailOf(core, id)).states;
    if (JOB_STATES.every((state) => states[state] === undefined || now[state] === states[state])) return;
    if (Date.now() > deadline) throw new Error(`batch ${id} did not reach ${JSON.stringify(states)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startBatch(core: CoreHarness, name: string, video: boolean): Promise<string> {
  const scan = await callCore(core.core, 'ingest:scan', { inputs: [join(dir, name)] });
  const batch = await callCore(core.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: 'sandbox',
    shoot: QUICK_SHOOT,
    video: video ? QUICK_VIDEO : null,
    includeDone: true,
    name,
  });
  return batch.id;
}

/** The copy's jobs, by state, read while no core runs. */
function jobsIn(file: string, batchId: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare<[string], { kind: string; state: string; n: number }>(
        'SELECT kind, state, count(*) AS n FROM jobs WHERE batch_id = ? GROUP BY kind, state',
      )
      .all(batchId);
    return Object.fromEntries(rows.map((row) => [`${row.kind} ${row.state}`, row.n]));
  } finally {
    db.close();
  }
}

function tablesOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
  } finally {
    db.close();
  }
}

function takenAtOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], { taken_at: number }>('SELECT taken_at FROM backup_mark').get()!.taken_at;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-restored-'));
  await makeProductFolders(join(dir, 'Spring'), 2);
  await makeProductFolders(join(dir, 'Summer'), 1);
  service = await startDefaultHarness({
    timeScale: SANDBOX_TIME_SCALE,
    rateLimit: { limit: 60, windowMs: 60_000 * CORE_TIME_SCALE },
  });
  h = await openCore();
  // Spring's shoots are created and then held in the making (every poll answered 503), so that its videos,
  // which wait for their shots, are surely unsent when Summer's start takes the backup.
  await service.client.addFault({ method: 'GET', path: '/v1/shoots/', action: 'status', status: 503 });
  spring = await startBatch(h, 'Spring', true);
  await untilStates(h, spring, { running: 2, waiting: 2 });
  summer = await startBatch(h, 'Summer', false);
  await service.client.clearFaults();
  await untilFinished(h.core, spring);
  await untilFinished(h.core, summer);
  await h.close();
  h = null;
  backup = latestBackup(dataDir())!;
}, 180_000);
afterAll(async () => {
  await h?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a restored backup', () => {
  it('is a copy marked as a backup, taken before Spring’s videos were sent; the live database is not marked', () => {
    expect(creates()).toEqual({ shoots: 3, videos: 2 });
    expect(jobsIn(backup, spring)).toEqual({ 'shoot running': 2, 'video waiting': 2 });
    expect(jobsIn(database(), spring)).toEqual({ 'shoot done': 2, 'video done': 2 });
    expect(tablesOf(backup)).toContain('backup_mark');
    expect(tablesOf(database())).not.toContain('backup_mark');
  });

  it('comes back paused, with a notice, and sends nothing until a person resumes it', async () => {
    const takenAt = takenAtOf(backup);
    // As the damage sentence says: the database and its log moved out, the backup copied in its place.
    const aside = join(dir, 'before-restore');
    await mkdir(aside);
    for (const name of await readdir(dataDir())) {
      if (name.startsWith('adbatch.db')) await rename(join(dataDir(), name), join(aside, name));
    }
    await copyFile(backup, database());
    const sentBefore = creates();

    h = await openCore();
    const moment = localMinuteWords(takenAt);
    const message = `Restored from the backup of ${moment}: its 2 videos not sent then (${2 * quoteVideo(QUICK_VIDEO)} credits) may have been sent after it. Resuming sends them again and may pay for them twice: check with the service what was made since ${moment} before going on.`;
    expect(h.notices).toContainEqual({ id: spring, message: `Paused: ${message}` });
    const paused = await detailOf(h, spring);
    expect(paused).toMatchObject({
      status: 'paused',
      statusReason: 'restored',
      statusMessage: message,
      decisions: ['resume', 'cancel'],
    });
    // What was being made is followed to its end and downloaded (free); then nothing moves without a person.
    await h.core.whenIdle();
    expect((await detailOf(h, spring)).states).toEqual({ done: 2, waiting: 2 });
    expect(creates()).toEqual(sentBefore);
    // The mark is gone from the live database once held.
    expect(tablesOf(database())).not.toContain('backup_mark');

    // `adbatch status` (beside the app) and an agent's batch_status say it, and what resuming may cost.
    const status = await adbatch(['status', spring, '--data-dir', dataDir()]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`${spring}  paused: restored from a backup  `);
    expect(status.stdout).toContain(`\n    ${message}\n`);
    expect(status.stdout).toContain('decide: adbatch resume --yes or adbatch cancel');
    const core = h.core;
    const server = await createMcpServer({
      call: (channel, ...args) => callHandler(core.dispatch, channel, args[0]),
      exportFolders: () => [],
      defaultAccountId: 'sandbox',
      version: 'test',
    });
    const client = new Client({ name: 'Test agent', version: '1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    try {
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      const answer = await client.callTool({ name: 'batch_status', arguments: { batchId: spring } });
      expect(answer.structuredContent).toMatchObject({
        status: 'paused',
        statusReason: 'restored',
        statusWords: 'paused: restored from a backup',
        statusMessage: message,
      });
    } finally {
      await client.close();
      await server.close();
    }
    expect(creates()).toEqual(sentBefore);

    // `adbatch resume` follows the batch but resumes it only on the person's --yes: it exits as for a decision
    // left to make, having sent nothing.
    await h.close();
    h = null;
    const held = await adbatch(['resume', '--data-dir', dataDir()]);
    expect(held.code, held.stderr).toBe(EXIT.partial);
    expect(held.stderr).toContain(`Spring: ${message} Add --yes to resume it.\n`);
    expect(jobsIn(database(), spring)).toEqual({ 'shoot done': 2, 'video waiting': 2 });
    expect(creates()).toEqual(sentBefore);

    // The person's decision, in the app: resuming sends the videos again (the service charges them again).
    h = await openCore();
    expect(h.notices).toEqual([]);
    await callCore(h.core, 'batches:resume', { id: spring });
    await h.close();
    h = null;

    // Opened again, the database is no backup any more: nothing is paused again, nothing said again.
    h = await openCore();
    expect(h.notices).toEqual([]);
    expect((await detailOf(h, spring)).status).not.toBe('paused');
    await untilFinished(h.core, spring);
    expect((await detailOf(h, spring)).states).toEqual({ done: 4 });
    expect(creates()).toEqual({ shoots: sentBefore.shoots, videos: sentBefore.videos + 2 });
  }, 180_000);
});
