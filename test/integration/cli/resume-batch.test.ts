import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';
import { withQueueStore } from '../../support/job-states.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { newBatch } from '../../unit/core/queue/store-fixtures.ts';

// `adbatch pause <batch>` says `adbatch resume <batch>` continues it, and it does: a resume of every batch
// leaves a batch the person paused as it is (their pause holds), a resume that names it resumes it.

let dir: string;
const where = () => ({ dataDir: join(dir, 'data'), library: join(dir, 'library') });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-resume-batch-'));
  await makeProductFolders(join(dir, 'products'), 1, 1);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const statusOf = (id: string) =>
  withQueueStore(where().dataDir, (ctx) => {
    const batch = ctx.store.batches.get(id)!;
    return { status: batch.status, reason: batch.statusReason };
  });

describe('adbatch resume <batch>', () => {
  it('resumes the batch the person paused, which a resume of every batch leaves paused', async () => {
    // A batch on the Sandbox paused before anything was sent, as `adbatch pause` leaves one.
    const photo = join(dir, 'products', 'product-01', '1.png');
    const id = withQueueStore(where().dataDir, (ctx) => {
      const batch = ctx.store.createBatch(
        newBatch({
          name: 'Held',
          video: null,
          libraryDir: where().library,
          products: [{ name: 'Mug', sourceDir: dirname(photo), photos: [{ path: photo, url: null }] }],
        }),
      );
      ctx.store.batches.pause(batch.id);
      return batch.id;
    });
    expect(statusOf(id)).toEqual({ status: 'paused', reason: 'user' });

    await adbatch(['resume', '--time-scale', '0.02', '--data-dir', where().dataDir]);
    expect(statusOf(id)).toEqual({ status: 'paused', reason: 'user' });

    const resumed = await adbatch(['resume', id, '--time-scale', '0.02', '--data-dir', where().dataDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`Resuming ${id}`);
    expect(statusOf(id).status).toBe('finished');

    const again = await adbatch(['resume', id, '--data-dir', where().dataDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('has finished: there is nothing to resume');
  }, 120_000);
});
