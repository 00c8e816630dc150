import { describe, expect, it } from 'vitest';
import type { PhotoHost } from '../../../src-main/core/hosting/photo-host.ts';
import type { ProductId } from '../../../src-main/core/queue/ids.ts';
import { engineHarnessForFile } from '../../support/engine-harness.ts';

// A batch whose photos cannot be made reachable (no storage for a remote service, storage refusing or
// down) is paused with the reason in words, before a credit is spent, and carries on once resumed. After a
// restart, storage is not asked again for photos it already holds.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '60/1.2s' });

const shootsCreated = () =>
  h.sandbox.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots').length;

describe("hosting a batch's photos", () => {
  it('pause the batch before its photos are needed, or as a job is about to be sent; resume finishes it', async () => {
    const batch = await h.createBatch({ products: 3 });
    const notices: string[] = [];

    await h.run([batch.id], {
      hostFor: () => {
        throw new Error('No storage is set up for photos on this computer.');
      },
      onNotice: (_batchId, message) => notices.push(message),
    });
    expect(h.store.batches.get(batch.id)).toMatchObject({
      status: 'paused',
      statusReason: 'hosting',
      statusMessage: 'No storage is set up for photos on this computer.',
    });
    expect(notices).toEqual(['Paused: No storage is set up for photos on this computer.']);
    expect(shootsCreated()).toBe(0);

    // The photos were made reachable, then the storage went away before the first job was sent.
    h.store.batches.resume(batch.id);
    let asked = 0;
    const vanishing = (): PhotoHost => {
      asked++;
      if (asked > 1) throw new Error('Could not upload "hat.jpg" (bucket "photos"): access denied.');
      return h.host;
    };
    await h.run([batch.id], { hostFor: vanishing });
    expect(h.store.batches.get(batch.id)).toMatchObject({
      status: 'paused',
      statusReason: 'hosting',
      statusMessage: 'Could not upload "hat.jpg" (bucket "photos"): access denied.',
    });
    expect(shootsCreated()).toBe(0);
    expect(h.store.jobs.ofBatch(batch.id).map((job) => job.state)).toEqual(['waiting', 'waiting', 'waiting']);

    h.store.batches.resume(batch.id);
    await h.run([batch.id], { hostFor: () => h.host });
    expect(h.store.batches.get(batch.id)).toMatchObject({
      status: 'finished',
      statusReason: null,
      statusMessage: null,
    });
    expect(h.store.jobs.ofBatch(batch.id).map((job) => job.state)).toEqual(['done', 'done', 'done']);
    expect(shootsCreated()).toBe(3);
  }, 60_000);

  it('after a restart, storage is asked again only for photos of shoots not yet sent; a host serving from this process for all', async () => {
    const batch = await h.createBatch({ products: 3 });
    // One create at a time, and a pause as the first one leaves: the other two stay unsent.
    await h.run([batch.id], {
      maxInFlight: 1,
      onChange: () => {
        const sent = h.store.jobs.ofBatch(batch.id).some((job) => job.state !== 'waiting');
        if (sent && h.store.batches.get(batch.id)!.status === 'running') h.store.batches.pause(batch.id);
      },
    });
    const jobs = h.store.jobs.ofBatch(batch.id);
    const unsent = new Set(jobs.filter((job) => job.state === 'waiting').map((job) => job.productId));
    expect(unsent.size).toBe(2);
    const photosOf = (keep: (productId: ProductId) => boolean) =>
      h.store.batches
        .products(batch.id)
        .filter((product) => keep(product.id))
        .flatMap((product) => product.photos.map((photo) => photo.path!))
        .sort();

    const prepared = (persistent: boolean) => {
      const asked: string[] = [];
      const host: PhotoHost = {
        ...h.host,
        persistent,
        prepare: (paths, onProgress) => {
          asked.push(...paths);
          return h.host.prepare(paths, onProgress);
        },
      };
      return { host, asked };
    };
    const storage = prepared(true);
    h.store.batches.resume(batch.id);
    await h.run([batch.id], { hostFor: () => storage.host });
    expect(storage.asked.sort()).toEqual(photosOf((id) => unsent.has(id)));
    expect(h.store.batches.get(batch.id)!.status).toBe('finished');

    const local = prepared(false);
    await h.run([batch.id], { hostFor: () => local.host });
    expect(local.asked.sort()).toEqual(photosOf(() => true));
  }, 60_000);
});
