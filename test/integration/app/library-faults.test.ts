import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { Events } from '../../../src-main/shared/ipc.ts';
import { type CoreHarness, callCore, refusalOf, startCoreHarness } from '../../support/core-harness.ts';
import { acceptedPostsBySource } from '../../support/engine-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { listFiles } from '../../support/library-checks.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { type SmallDisk, smallDisk } from '../../support/small-disk.ts';
import { PRODUCT_PHOTOS, startStaticServer } from '../../support/static-server.ts';

// Issue 17 through the app's own path: a batch whose library's disk fills up pauses with the reason in
// words (shown on the batch and as a notice), nothing is failed, and once there is room again the app
// notices by itself and downloads what is owed, without a second POST.

let h: CoreHarness;
let service: Sandbox;
let disk: SmallDisk;

beforeAll(async () => {
  h = await startCoreHarness();
  service = await startSandbox({ port: 0, timeScale: 0.02 });
  disk = smallDisk(h.dir, { sizeBytes: 64 * 1024 * 1024, freeBytes: 48 * 1024 });
  console.log(`app library faults: the library is on a ${disk.kind}`);
});
afterAll(async () => {
  await disk?.close();
  await h?.close();
  await service?.close();
});

describe('the app, with its library on a disk that fills up', () => {
  it('pauses the batch with the reason, and resumes by itself once there is room', async () => {
    const photos = await startStaticServer();
    try {
      const catalog = join(h.dir, 'catalog.csv');
      await writeFile(
        catalog,
        `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\nTote,${photos.urlOf(PRODUCT_PHOTOS.tote)}\n`,
      );
      await callCore(h.core, 'settings:set', { libraryDir: disk.library });
      const account = await callCore(h.core, 'accounts:add', {
        name: 'Studio',
        baseUrl: service.url,
        apiKey: defaultKeys(service).personal,
      });
      const notices: Array<Events['batches:notice']> = [];
      h.core.events.on('batches:notice', (notice) => notices.push(notice));
      const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
      const batch = await callCore(h.core, 'batches:create', {
        scanId: scan.scanId,
        accountId: account.id,
        shoot: QUICK_SHOOT,
        video: null,
        includeDone: false,
        name: 'Full disk',
      });

      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).statusReason, {
          timeout: 30_000,
        })
        .toBe('library');
      const paused = await callCore(h.core, 'batches:get', { id: batch.id });
      expect(paused.status).toBe('paused');
      expect(paused.statusMessage).toMatch(
        disk.kind === 'tmpfs'
          ? /is full: free about \d+ MB and resume/
          : /may not write in the library folder/,
      );
      expect(paused.failed).toBe(0);
      expect(notices.map((notice) => notice.message)).toContain(`Paused: ${paused.statusMessage}`);

      await disk.mend();
      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).status, {
          timeout: 30_000,
        })
        .toBe('finished');
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
    } finally {
      await photos.close();
    }
  }, 60_000);
});

describe('the app, its library moved in Finder', () => {
  it('takes the new place for a batch once its saved results are there, and refuses a place without them', async () => {
    const photos = await startStaticServer();
    const library = join(h.dir, 'moving-library');
    try {
      const catalog = join(h.dir, 'moving.csv');
      await writeFile(catalog, `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\n`);
      await callCore(h.core, 'settings:set', { libraryDir: library });
      const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
      const batch = await callCore(h.core, 'batches:create', {
        scanId: scan.scanId,
        accountId: 'sandbox',
        shoot: QUICK_SHOOT,
        video: null,
        includeDone: true,
        name: 'Moving',
      });
      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).status, {
          timeout: 30_000,
        })
        .toBe('finished');
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
    } finally {
      await photos.close();
    }
  }, 60_000);
});

describe('the app, results the CDN refuses', () => {
  it('leaves the jobs owed, offers them to download again, and fetches them for free once they answer', async () => {
    const photos = await startStaticServer();
    const faults = new SandboxClient(service.url);
    try {
      await callCore(h.core, 'settings:set', { libraryDir: join(h.dir, 'owed-library') });
      const catalog = join(h.dir, 'owed.csv');
      await writeFile(catalog, `product,url\nTote,${photos.urlOf(PRODUCT_PHOTOS.tote)}\n`);
      const account = (await callCore(h.core, 'accounts:list')).find((listed) => listed.name === 'Studio')!;
      await faults.addFault({ method: 'GET', path: '/cdn', action: 'status', status: 403 });
      const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
      const batch = await callCore(h.core, 'batches:create', {
        scanId: scan.scanId,
        accountId: account.id,
        shoot: QUICK_SHOOT,
        video: null,
        includeDone: true,
        name: 'Owed',
      });
      await expect
        .poll(async () => (await callCore(h.core, 'batches:get', { id: batch.id })).states.owed, {
          timeout: 30_000,
        })
        .toBe(1);
      const owed = await callCore(h.core, 'batches:get', { id: batch.id });
      expect(owed).toMatchObject({ status: 'finished', failed: 0, creditsSpent: 1 });
      const job = owed.items[0]!.jobs[0]!;
      expect((await callCore(h.core, 'jobs:get', { id: job.id })).decisions).toEqual(['redownload']);

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
      await photos.close();
    }
  }, 60_000);
});
