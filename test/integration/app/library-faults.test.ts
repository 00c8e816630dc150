import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
}) {
  const catalog = await writeCatalog(join(h.dir, `${input.name}.csv`), photos, input.products);
  await callCore(h.core, 'settings:set', { libraryDir: input.libraryDir });
  const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
  return callCore(h.core, 'batches:create', {
    scanId: scan.scanId,
    accountId: input.accountId,
    shoot: QUICK_SHOOT,
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
