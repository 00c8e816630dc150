import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batchFolder } from '../../../src-main/core/library.ts';
import { relocateBatch } from '../../../src-main/core/queue/relocate.ts';
import { engineHarnessForFile } from '../../support/engine-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';

// Issue 17, the library moved: renamed while a batch runs (after its shoot was saved, before its video
// is). The engine does not start a second library at the old place: it pauses the batch, saying the folder
// is gone. Pointed at the new place, the batch takes it and finishes there, and what was already verified is
// not downloaded again.

const h = engineHarnessForFile({ timeScale: 0.05, rateLimit: '60/3s' });

describe('the library renamed while a batch runs', () => {
  it('pauses the batch, then finishes it where the library went, without downloading anything twice', async () => {
    const batch = await h.createBatch({ products: 1, video: QUICK_VIDEO });
    const library = join(h.dir, 'library');
    const moved = join(h.dir, 'library (moved)');
    const engine = h.engine([batch.id]);
    const run = engine.run();
    const [shoot, video] = h.store.jobs.ofBatch(batch.id);
    while (h.store.jobs.get(shoot!.id)!.state !== 'done') await sleep(10);
    expect(h.store.jobs.get(video!.id)!.state).not.toBe('done');
    await rename(library, moved);
    await run;

    expect(h.store.batches.get(batch.id)).toMatchObject({
      status: 'paused',
      statusReason: 'library',
      statusMessage: `The library folder (${library}) is gone: it was renamed or moved, or its drive was unplugged. Put it back, or choose where it is now, and resume; or download it all again, free.`,
    });
    expect(h.store.jobs.get(video!.id)!.state).toBe('downloading');
    expect(await listFiles(library)).toEqual([]);

    // Pointing at the batch's own folder in the moved library works as well as at the library.
    await expect(relocateBatch(h.store, batch.id, join(h.dir, 'elsewhere'))).rejects.toThrow(
      /2 of the 2 results saved for this batch are not in/,
    );
    await relocateBatch(h.store, batch.id, join(moved, batchFolder(batch)));
    expect(h.store.batches.get(batch.id)).toMatchObject({ libraryDir: moved, status: 'running' });
    await h.run([batch.id]);

    expect(h.store.batches.get(batch.id)!.status).toBe('finished');
    expect(await verifyDownloads(h.store, batch.id)).toBe(h.store.assets.ofBatch(batch.id).length);
    // Each result was fetched by us once: the shoot's before the move, the video's after it.
    expect(h.store.assets.ofBatch(batch.id).map((asset) => [asset.kind, asset.attempts])).toEqual([
      ['image', 1],
      ['thumbnail', 1],
      ['video', 1],
    ]);
    expect(await listFiles(library)).toEqual([]);
  }, 60_000);
});
