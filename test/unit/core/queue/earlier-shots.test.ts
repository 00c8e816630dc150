import { describe, expect, it } from 'vitest';
import { setAsideEarlierShots } from '../../../../src-main/core/ingest/already-done.ts';
import { productFingerprint } from '../../../../src-main/core/queue/fingerprint.ts';
import type { NewProduct } from '../../../../src-main/core/queue/types.ts';
import { complete, newBatch, SHOOT, storePerTest, submitAndAccept, VIDEO } from './store-fixtures.ts';

const ctx = storePerTest();

const product = (name: string, hashes: string[], folder = `/photos/${name}`): NewProduct => ({
  name,
  sourceDir: folder,
  path: name,
  photos: hashes.map((hash, index) => ({ path: `${folder}/${index + 1}.jpg`, url: null, hash })),
});

/** Runs a shoot-only batch's jobs to `done`. */
function shootToDone(batchId: string): void {
  for (const job of ctx.store.jobs.ofBatch(batchId)) {
    submitAndAccept(ctx, job.id);
    complete(ctx, job.id, [`${job.id}/1.png`]);
    for (const asset of ctx.store.assets.ofJob(job.id))
      ctx.store.assets.downloaded(asset.id, 10, 'f'.repeat(64));
  }
}

describe('productFingerprint', () => {
  it('is the same for the same photo content and settings, wherever the files are', () => {
    const a = product('cap', ['h1', 'h2'], '/a');
    const b = product('cap copy', ['h1', 'h2'], '/elsewhere');
    expect(productFingerprint(a.photos, SHOOT, null)).toBe(productFingerprint(b.photos, SHOOT, null));
  });

  it('changes with the photos, their order (the hero leads), the shoot or the video settings', () => {
    const base = productFingerprint(product('cap', ['h1', 'h2']).photos, SHOOT, null);
    expect(productFingerprint(product('cap', ['h2', 'h1']).photos, SHOOT, null)).not.toBe(base);
    expect(productFingerprint(product('cap', ['h1', 'h3']).photos, SHOOT, null)).not.toBe(base);
    expect(
      productFingerprint(product('cap', ['h1', 'h2']).photos, { ...SHOOT, quality: '4k' }, null),
    ).not.toBe(base);
    expect(productFingerprint(product('cap', ['h1', 'h2']).photos, SHOOT, VIDEO)).not.toBe(base);
  });

  it('stands a catalog photo for itself by its URL', () => {
    const byUrl = (url: string) => [{ path: null, url }];
    expect(productFingerprint(byUrl('https://cdn/x.jpg'), SHOOT, null)).not.toBe(
      productFingerprint(byUrl('https://cdn/y.jpg'), SHOOT, null),
    );
  });
});

describe('earlier shots', () => {
  it('finds a product shot in an earlier batch, and one still being shot', () => {
    const first = ctx.store.createBatch(
      newBatch({ name: 'First', video: null, products: [product('cap', ['h1'])] }),
    );
    shootToDone(first.id);
    ctx.store.createBatch(newBatch({ name: 'Second', video: null, products: [product('tote', ['h2'])] }));

    const { fresh, setAside } = setAsideEarlierShots(
      ctx.store,
      [product('cap again', ['h1'], '/new/cap'), product('tote', ['h2']), product('mug', ['h3'])],
      SHOOT,
      null,
    );
    expect(fresh.map((p) => p.name)).toEqual(['mug']);
    expect(setAside).toEqual([
      {
        file: 'cap again',
        reason: 'already shot from these photos with these settings in "First": skipped',
        severity: 'warning',
        code: 'already_done',
      },
      {
        file: 'tote',
        reason: 'being shot from these photos with these settings in "Second": skipped',
        severity: 'warning',
        code: 'in_progress',
      },
    ]);
  });

  it('keeps everything when asked to shoot again, or when the settings differ', () => {
    const first = ctx.store.createBatch(newBatch({ video: null, products: [product('cap', ['h1'])] }));
    shootToDone(first.id);
    expect(setAsideEarlierShots(ctx.store, [product('cap', ['h1'])], SHOOT, null, true).fresh).toHaveLength(
      1,
    );
    expect(
      setAsideEarlierShots(ctx.store, [product('cap', ['h1'])], { ...SHOOT, shots: 1 }, null).fresh,
    ).toHaveLength(1);
  });

  it('does not count a product whose shoot failed or was cancelled: nothing came of it', () => {
    const cancelled = ctx.store.createBatch(newBatch({ video: null, products: [product('cap', ['h1'])] }));
    ctx.store.jobs.cancelBatch(cancelled.id);
    const failed = ctx.store.createBatch(newBatch({ video: null, products: [product('cap', ['h1'])] }));
    const job = ctx.store.jobs.ofBatch(failed.id)[0]!;
    submitAndAccept(ctx, job.id);
    ctx.store.jobs.failRemote(job.id, 'failed', { code: 'generation_failed', message: 'failed' });
    expect(setAsideEarlierShots(ctx.store, [product('cap', ['h1'])], SHOOT, null).setAside).toEqual([]);
  });
});
