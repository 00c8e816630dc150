import { describe, expect, it } from 'vitest';
import { engineHarnessForFile } from '../../support/engine-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';

// What core needs from a long-running engine (the app): each batch said to be settled as it becomes
// `finished` (so its manifest can be written), and a way to wait until nothing can move without the user
// while the engine stays alive for what comes next.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '60/3s' });

describe('an engine that stays alive', () => {
  it('settles each batch as it finishes and resolves whenIdle each time nothing can move', async () => {
    const settled: string[] = [];
    const first = await h.createBatch({ products: 3 });
    const engine = h.engine([first.id], {
      stayAlive: true,
      sandboxTimeScale: 0.02,
      onBatchSettled: (batchId) => {
        // Called once the batch is finished, with every result on disk.
        expect(h.store.batches.get(batchId)!.status).toBe('finished');
        expect(h.store.assets.ofBatch(batchId).every((asset) => asset.state === 'done')).toBe(true);
        settled.push(batchId);
      },
    });
    await expect(engine.whenIdle()).resolves.toBeUndefined(); // not running yet: nothing can move
    let ended = false;
    const run = engine.run().then(() => {
      ended = true;
    });

    await engine.whenIdle();
    expect(settled).toEqual([first.id]);
    expect(h.store.jobs.ofBatch(first.id).map((job) => job.state)).toEqual(['done', 'done', 'done']);
    expect(ended).toBe(false);

    // A batch handed over later: whenIdle waits for it too, and only it is settled this time.
    const second = await h.createBatch({ products: 2 });
    await engine.drive(second.id);
    await engine.whenIdle();
    expect(settled).toEqual([first.id, second.id]);
    expect(h.store.batches.get(second.id)!.status).toBe('finished');

    // Idle and nothing new: it resolves again, without settling anything twice.
    await engine.whenIdle();
    expect(settled).toEqual([first.id, second.id]);
    expect(ended).toBe(false);

    engine.stop();
    await run;
    expect(ended).toBe(true);
    await expect(engine.whenIdle()).resolves.toBeUndefined();
  }, 60_000);

  it('without stayAlive, settles a batch as soon as it finishes, before the run ends', async () => {
    const quick = await h.createBatch({ products: 1 });
    const slow = await h.createBatch({
      products: 2,
      video: QUICK_VIDEO,
    });
    const settledAt = new Map<string, number>();
    await h.run([quick.id, slow.id], {
      sandboxTimeScale: 0.02,
      onBatchSettled: (batchId) => settledAt.set(batchId, Date.now()),
    });
    expect([...settledAt.keys()].sort()).toEqual([quick.id, slow.id].sort());
    const lastVideo = Math.max(
      ...h.store.jobs
        .ofBatch(slow.id)
        .filter((job) => job.kind === 'video')
        .map((job) => job.finishedAt ?? 0),
    );
    // The shoots-only batch was settled long before the videos of the other one were done.
    expect(settledAt.get(quick.id)!).toBeLessThan(lastVideo);
  }, 60_000);
});
