import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreCall, createMcpServer } from '../../../src-main/mcp/server.ts';
import type { Sandbox } from '../../../src-main/sandbox/server.ts';
import type { Events } from '../../../src-main/shared/ipc.ts';
import type { AccountView } from '../../../src-main/shared/models.ts';
import { type CoreHarness, callCore, refusalOf } from '../../support/core-harness.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { listFiles } from '../../support/library-checks.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';
import { type SmallDisk, smallDisk } from '../../support/small-disk.ts';
import { type PRODUCT_PHOTOS, type StaticServer, writeCatalog } from '../../support/static-server.ts';
import { type StudioHarness, startStudioHarness } from '../../support/studio-harness.ts';

// Issue 17 through the app's own path: a batch whose library's disk fills up pauses with the reason in
// words (shown on the batch and as a notice), nothing is failed, and once there is room again the app
// notices by itself and downloads what is owed, without a second POST.
// Issue 27, recovery does what it says, through the app's path: a library deleted mid-batch is noticed once
// it is made again (empty), and the batch goes on, its folders made again and every file back; Download
// again looks at the disk, and says in a notice which results the service no longer serves, with credits.

let harness: StudioHarness;
let h: CoreHarness;
let service: Sandbox;
let disk: SmallDisk;
let photos: StaticServer;
let studio: AccountView;

beforeAll(async () => {
  harness = await startStudioHarness();
  ({ h, service, photos, studio } = harness);
  disk = smallDisk(h.dir, { sizeBytes: 64 * 1024 * 1024, freeBytes: 48 * 1024 });
  console.log(`app library faults: the library is on a ${disk.kind}`);
});
afterAll(async () => {
  // Unmounted before the app's folder it lies in is removed.
  await disk?.close();
  await harness?.close();
});

/** A batch of one Classic shot of each of these fixture products, its results in `libraryDir`. */
async function startBatch(input: {
  name: string;
  products: Array<keyof typeof PRODUCT_PHOTOS>;
  accountId: string;
  libraryDir: string;
  shots?: 1 | 4;
}) {
  const catalog = await writeCatalog(join(h.dir, `${input.name}.csv`), photos, input.products);
  await callCore(h.core, 'settings:set', { libraryDir: input.libraryDir });
  const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
  return callCore(h.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: input.accountId,
    shoot: { ...QUICK_SHOOT, shots: input.shots ?? 1 },
    video: null,
    includeDone: true,
    name: input.name,
  });
}

const statusOf = async (id: string) => (await callCore(h.core, 'batches:get', { id })).status;

describe('the app, with its library on a disk that fills up', () => {
  it('pauses the batch with the reason, and resumes by itself once there is room', async () => {
    const notices: Array<Events['batches:notice']> = [];
    h.core.events.on('batches:notice', (notice) => notices.push(notice));
    const batch = await startBatch({
      name: 'Full disk',
      products: ['hat', 'tote'],
      accountId: studio.id,
      libraryDir: disk.library,
    });

    await expect
      .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).statusReason, {
        timeout: 30_000,
      })
      .toBe('library');
    const paused = await callCore(h.core, 'batches:get', { id: batch.id });
    expect(paused.status).toBe('paused');
    expect(paused.statusMessage).toMatch(
      disk.kind === 'tmpfs' ? /is full: free about \d+ MB and resume/ : /may not write in the library folder/,
    );
    expect(paused.failed).toBe(0);
    expect(notices.map((notice) => notice.message)).toContain(`Paused: ${paused.statusMessage}`);

    await disk.mend();
    await expect.poll(() => statusOf(batch.id), { timeout: 30_000 }).toBe('finished');
    const finished = await callCore(h.core, 'batches:get', { id: batch.id });
    expect({ done: finished.done, failed: finished.failed }).toEqual({ done: 2, failed: 0 });
    expect(notices.map((notice) => notice.message)).toContain(
      'The library can be written again: downloading what was paid for.',
    );
    expect([...acceptedPostsBySource(service).values()]).toEqual([1, 1]);
    // The manifest is written as the batch finishes: once it is there, no partial file is left.
    await expect
      .poll(async () => (await listFiles(disk.library)).filter((file) => file.endsWith('manifest.json')))
      .toHaveLength(1);
    expect((await listFiles(disk.library)).filter((file) => file.endsWith('.part'))).toEqual([]);
  }, 60_000);
});

describe('the app, its library moved in Finder', () => {
  it('takes the new place for a batch once its saved results are there, and refuses a place without them', async () => {
    const library = join(h.dir, 'moving-library');
    const batch = await startBatch({
      name: 'Moving',
      products: ['hat'],
      accountId: studio.id,
      libraryDir: library,
    });
    await expect.poll(() => statusOf(batch.id), { timeout: 30_000 }).toBe('finished');
    const moved = join(h.dir, 'moved-library');
    await rename(library, moved);

    const refused = await refusalOf(h.core, 'batches:relocate', { id: batch.id, libraryDir: h.dir });
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.message).toMatch(/^2 of the 2 results saved for this batch are not in /);
    expect((await refusalOf(h.core, 'batches:relocate', { id: batch.id, libraryDir: 'moved' })).code).toBe(
      'bad_request',
    );

    await callCore(h.core, 'batches:relocate', { id: batch.id, libraryDir: moved });
    const detail = await callCore(h.core, 'batches:get', { id: batch.id });
    expect(detail.resultsFolder.startsWith(moved)).toBe(true);
    expect(detail.done).toBe(1);
  }, 60_000);
});

describe('the app, results the CDN refuses', () => {
  it('leaves the jobs owed, offers them to download again, and fetches them for free once they answer', async () => {
    const faults = new SandboxClient(service.url);
    try {
      await faults.addFault({ method: 'GET', path: '/cdn', action: 'status', status: 403 });
      const batch = await startBatch({
        name: 'Owed',
        products: ['tote'],
        accountId: studio.id,
        libraryDir: join(h.dir, 'owed-library'),
      });
      // Paid for and not on disk: nothing left to run, and the batch needs you (issue 27), not finished.
      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).status, {
          timeout: 30_000,
        })
        .toBe('needs_you');
      const owed = await callCore(h.core, 'batches:get', { id: batch.id });
      expect(owed).toMatchObject({ states: { owed: 1 }, failed: 0, creditsSpent: 1, creditsInDoubt: 1 });
      const job = owed.items[0]!.jobs[0]!;
      expect((await callCore(h.core, 'jobs:get', { id: job.id })).job.decisions).toEqual(['redownload']);
      // The batch offers to check all again and to download again what it owes, and the job the latter.
      expect(owed.decisions).toEqual(['recheck', 'redownload']);
      expect(job.decisions).toEqual(['redownload']);

      await faults.clearFaults();
      const posts = service.requests().filter((entry) => entry.method === 'POST').length;
      await callCore(h.core, 'batches:redownload', { id: batch.id });
      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).done, { timeout: 30_000 })
        .toBe(1);
      expect(await callCore(h.core, 'batches:get', { id: batch.id })).toMatchObject({
        status: 'finished',
        creditsSpent: 1,
      });
      expect(service.requests().filter((entry) => entry.method === 'POST')).toHaveLength(posts);
      expect((await refusalOf(h.core, 'batches:redownload', { id: batch.id })).message).toMatch(
        /owes no results: every paid result is on disk/,
      );
    } finally {
      await faults.clearFaults();
    }
  }, 60_000);
});

/** Shots (not thumbnails) on disk under the library, each decoded to be sure it is a whole image. */
async function decodedShots(library: string): Promise<number> {
  const shots = (await listFiles(library)).filter(
    (file) => /shot-\d\.jpg$/.test(file) && !file.includes('thumbnails'),
  );
  for (const shot of shots) await sharp(await readFile(shot), { failOn: 'error' }).stats();
  return shots.length;
}

describe('the app, its library deleted mid-batch', () => {
  const library = () => join(h.dir, 'deleted-library');
  let batchId = '';

  it('goes on by itself once the library folder is made again, making the batch folders again', async () => {
    const postsBefore = service.requests().filter((entry) => entry.method === 'POST').length;
    const batch = await startBatch({
      name: 'Deleted',
      products: ['hat', 'tote', 'mug'],
      accountId: studio.id,
      libraryDir: library(),
      shots: 4,
    });
    batchId = batch.id;
    await expect.poll(() => decodedShots(library()).catch(() => 0), { timeout: 30_000 }).toBeGreaterThan(0);
    // Downloads still write while the folder is removed, as with `rm -rf`: tried again until it is gone.
    await rm(library(), { recursive: true, force: true, maxRetries: 20, retryDelay: 20 });
    await expect
      .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).statusReason, {
        timeout: 30_000,
      })
      .toBe('library');
    expect(await listFiles(library())).toEqual([]);

    await mkdir(library());
    await expect.poll(() => statusOf(batch.id), { timeout: 60_000 }).toBe('finished');
    const finished = await callCore(h.core, 'batches:get', { id: batch.id });
    expect({ done: finished.done, failed: finished.failed }).toEqual({ done: 3, failed: 0 });
    expect(await decodedShots(library())).toBe(12);
    expect(h.notices).toContainEqual({
      id: batch.id,
      message: 'The library can be written again: downloading what was paid for.',
    });
    // One POST a shoot, none again.
    expect(service.requests().filter((entry) => entry.method === 'POST')).toHaveLength(postsBefore + 3);
  }, 90_000);

  it('Download again says which results the service no longer serves, with the credits, and fetches them once served', async () => {
    const detail = await callCore(h.core, 'batches:get', { id: batchId });
    const lost = detail.items[0]!;
    const job = lost.jobs[0]!;
    // Four standard shots: 4 credits.
    expect(job.creditsCharged).toBe(4);
    const expire = (method: 'POST' | 'DELETE') =>
      fetch(`${service.url}/_sandbox/results/expire`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ status: 410 }) : null,
      });
    expect((await expire('POST')).status).toBe(200);
    // One product's folder deleted: the others' files are still there, and nothing of theirs is fetched.
    const folder = (await listFiles(library())).find((file) => file.includes(`/001 ${lost.name}/`))!;
    await rm(join(folder, folder.includes('thumbnails') ? '../..' : '..'), { recursive: true });
    expect(await decodedShots(library())).toBe(8);
    const posts = service.requests().filter((entry) => entry.method === 'POST').length;

    await callCore(h.core, 'batches:redownload', { id: batchId });
    expect(h.notices).toContainEqual({
      id: batchId,
      message: `The service no longer serves the results of one job (the shoot of ${lost.name}): 4 credits were paid for them, and they cannot be downloaded again.`,
    });
    const owed = (await callCore(h.core, 'batches:get', { id: batchId })).items[0]!.jobs[0]!;
    expect(owed).toMatchObject({ state: 'owed', failureCode: 'results_gone', decisions: ['redownload'] });
    expect(owed.failureMessage).toBe(
      `The service no longer serves this shoot's results; it charged 4 credits for it.`,
    );

    // An agent reads the same in batch_status: which job, why, and what it was paid.
    const mcp = await batchStatusOverMcp(batchId);
    expect(mcp.waitingForDecision).toEqual([
      expect.objectContaining({
        jobId: job.id,
        state: 'owed',
        why: owed.failureMessage,
        decisions: [{ decision: 'redownload', words: 'Download again (free)' }],
      }),
    ]);

    expect((await expire('DELETE')).status).toBe(200);
    await callCore(h.core, 'batches:redownload', { id: batchId });
    await expect.poll(() => statusOf(batchId), { timeout: 30_000 }).toBe('finished');
    expect((await callCore(h.core, 'batches:get', { id: batchId })).done).toBe(3);
    expect(await decodedShots(library())).toBe(12);
    expect(service.requests().filter((entry) => entry.method === 'POST')).toHaveLength(posts);
  }, 90_000);
  it('Download again asks the service for a job again where its result addresses expired, and fetches from the fresh ones', async () => {
    const renewed = await fetch(`${service.url}/_sandbox/results/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 410, renew: true }),
    });
    expect(renewed.status).toBe(200);
    await rm(library(), { recursive: true });
    const requestsBefore = service.requests().length;
    const noticesBefore = h.notices.length;

    await callCore(h.core, 'batches:redownload', { id: batchId });
    await expect.poll(() => statusOf(batchId), { timeout: 30_000 }).toBe('finished');
    expect((await callCore(h.core, 'batches:get', { id: batchId })).done).toBe(3);
    expect(await decodedShots(library())).toBe(12);
    const since = service.requests().slice(requestsBefore);
    // Each shoot asked for again once (its old addresses answered 410), none sent again.
    expect(
      since.filter((entry) => entry.method === 'GET' && entry.path.startsWith('/v1/shoots/')),
    ).toHaveLength(3);
    expect(since.filter((entry) => entry.method === 'POST')).toEqual([]);
    expect(h.notices.slice(noticesBefore).some((notice) => /no longer serves/.test(notice.message))).toBe(
      false,
    );
  }, 90_000);
});

/** MCP's batch_status for this batch, through the app's own handler map, as an agent reads it. */
async function batchStatusOverMcp(id: string): Promise<{ waitingForDecision: unknown[] }> {
  const call: CoreCall = (channel, ...args) => callCore(h.core, channel, args[0]);
  const server = await createMcpServer({
    call,
    exportFolders: () => [],
    defaultAccountId: 'sandbox',
    version: 'test',
  });
  const client = new Client({ name: 'Test agent', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const status = await client.callTool({ name: 'batch_status', arguments: { batchId: id } });
    expect(status.isError).toBeFalsy();
    return status.structuredContent as { waitingForDecision: unknown[] };
  } finally {
    await client.close();
  }
}
