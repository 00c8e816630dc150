import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  refusalOf,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import {
  PRODUCT_FIXTURES_DIR,
  type StaticServer,
  startStaticServer,
  writeCatalog,
} from '../../support/static-server.ts';

// Issue 28, point 1, through the app's core: a catalog whose photos are served from this computer is
// refused photo by photo, saying how to allow the host; once the host is in Allowed hosts (Settings), the
// same scan takes them. A host that is not one is refused by Settings in words.

let h: CoreHarness;
let photos: StaticServer;
let catalog: string;

beforeAll(async () => {
  // No host allowed for the session: only what Settings says counts here.
  h = await startCoreHarness();
  photos = await startStaticServer();
  catalog = await writeCatalog(join(h.dir, 'office.csv'), photos, ['hat', 'tote']);
});
afterAll(async () => {
  await photos?.close();
  await h?.close();
});

describe('Allowed hosts in Settings', () => {
  it('refuses a catalog served from this computer until its host is allowed, then takes it', async () => {
    const host = new URL(photos.url).host;
    const before = photos.hits().length;
    const refused = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
    expect(refused.products).toEqual([]);
    const reasons = refused.problems.filter((problem) => problem.code === 'not_public');
    expect(reasons).toHaveLength(2);
    expect(reasons[0]!.reason).toMatch(
      new RegExp(
        `points at a loopback address \\(this computer\\) \\(127\\.0\\.0\\.1\\);.*To allow it: --allow-host ${host}, or add it to Allowed hosts in Settings$`,
      ),
    );
    expect(photos.hits().length).toBe(before);

    const saved = await callCore(h.core, 'settings:set', { allowedHosts: [host] });
    expect(saved.allowedHosts).toEqual([host]);
    expect((await callCore(h.core, 'settings:get')).allowedHosts).toEqual([host]);
    const taken = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
    expect(taken.products.map((product) => product.name)).toEqual(['Hat', 'Tote']);
    expect(taken.problems).toEqual([]);
  });

  it('refuses to save what is not a host, and keeps what was saved', async () => {
    const refusal = await refusalOf(h.core, 'settings:set', { allowedHosts: ['http://photos.lan/a'] });
    expect(refusal.message).toMatch(/a host name or address, with a port if you like/);
    expect((await callCore(h.core, 'settings:get')).allowedHosts).toEqual([new URL(photos.url).host]);
  });

  it('asks the service’s own addresses and Adbatch’s as they are: a Sandbox model preset, photos it hosts', async () => {
    const [preset] = await callCore(h.core, 'models:list', { accountId: 'sandbox' });
    expect(new URL(preset!.imageUrl).hostname).toBe('127.0.0.1');
    const batchId = await finishedBatch(h.core, {
      inputs: [join(PRODUCT_FIXTURES_DIR, 'hat')],
      name: 'With a preset',
      shoot: { ...QUICK_SHOOT, mode: 'with_model', modelUrl: preset!.imageUrl },
    });
    const batch = await callCore(h.core, 'batches:get', { id: batchId });
    expect(batch.statusReason).toBeNull();
    expect(batch.items.flatMap((item) => item.jobs).map((job) => job.state)).toEqual(['done']);
  }, 60_000);
});
