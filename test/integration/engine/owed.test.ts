import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFault, engineHarnessForFile } from '../../support/engine-harness.ts';
import { listFiles } from '../../support/library-checks.ts';

// A result the CDN refuses for good: its job is owed (paid for, not on disk), not failed, and downloading
// it again costs nothing. A partial file left by an earlier attempt (a process killed mid-download) is
// removed once the result is given up on, not left in the library.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '60/3s' });

describe('a result the CDN refuses', () => {
  it('leaves the job owed, charged once, and no partial file behind after downloading again', async () => {
    const batch = await h.createBatch({ products: 1 });
    await addFault(h.sandbox, { method: 'GET', path: '/cdn', action: 'status', status: 403 });
    await h.run([batch.id]);
    const [shoot] = h.store.jobs.ofBatch(batch.id);
    expect(shoot).toMatchObject({ state: 'owed', failureCode: 'download_failed', creditsCharged: 1 });

    // As a download cut off by a crash leaves it: the first bytes of the image, resumable with a Range.
    const image = h.store.assets.ofJob(shoot!.id).find((asset) => asset.kind === 'image')!;
    const part = join(h.dir, 'library', `${image.path}.part`);
    await mkdir(dirname(part), { recursive: true });
    await writeFile(part, Buffer.alloc(512, 1));

    h.store.jobs.redownload(shoot!.id);
    await h.run([batch.id]);
    const ranged = h.sandbox
      .requests()
      .filter((entry) => entry.path.endsWith(image.path.split('/').at(-1)!) && entry.fault === 'status');
    expect(ranged.length).toBeGreaterThanOrEqual(2);
    expect(h.store.jobs.get(shoot!.id)).toMatchObject({ state: 'owed', creditsCharged: 1 });
    expect(h.store.totals(batch.id)).toMatchObject({ charged: 1, refunded: 0 });
    expect(h.sandbox.requests().filter((entry) => entry.method === 'POST')).toHaveLength(1);
    expect((await listFiles(join(h.dir, 'library'))).filter((file) => file.endsWith('.part'))).toEqual([]);
  }, 30_000);
});
