import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalWords } from '../../../src-main/core/app/fs-refusal.ts';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import { jpeg, picture } from '../../support/bad-inputs.ts';
import { callCore, startCoreHarness } from '../../support/core-harness.ts';
import { canMount, type SmallDisk, smallDisk } from '../../support/small-disk.ts';

// A scan whose cache (thumbnails, converted copies, in the library's `.adbatch`) cannot be written: the
// photos are fine, so none is refused as "corrupt" (as a full disk once made a CMYK photo's copy say
// "corrupt JPEG: … write error"); the scan stops with the disk's fault in words, and once there is room the
// same photos are all taken. As root on a real full disk (a tmpfs); otherwise on a folder it may not write.
// Through ingest itself, and through the app's own path (`ingest:scan`, as New batch and MCP ask it).

let dir: string;
let photos: string;
let disk: SmallDisk;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-cache-full-'));
  photos = join(dir, 'Mugs');
  await mkdir(photos);
  await writeFile(join(photos, 'front.jpg'), await jpeg(1200, 1200, 1));
  await writeFile(join(photos, 'side.jpg'), await jpeg(1200, 1200, 2));
  await writeFile(
    join(photos, 'print-ready.jpg'),
    await picture(1200, 1200, 3).toColourspace('cmyk').jpeg().toBuffer(),
  );
  // Room for the cache's folders and a thumbnail or two, not for a converted copy.
  disk = smallDisk(dir, { sizeBytes: 4 * 1024 * 1024, freeBytes: 48 * 1024 });
});

afterAll(async () => {
  await disk?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`a scan whose cache cannot be written (${canMount ? 'a full disk' : 'a folder it may not write'})`, () => {
  it('refuses no photo, says what is wrong with the disk, and takes every photo once it is mended', async () => {
    const cacheDir = join(disk.library, '.adbatch');
    const failure = await scanInputs([photos], { cacheDir }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure, 'the scan stops').toBeInstanceOf(Error);
    expect(refusalWords(failure)).toMatch(
      canMount
        ? new RegExp(`^The disk that holds ${disk.library}\\S* is full: free some space`)
        : new RegExp(`^Adbatch is not allowed to write ${disk.library}`),
    );

    await disk.mend();
    const plan = await scanInputs([photos], { cacheDir });
    expect(plan.problems).toEqual([]);
    expect(plan.products.flatMap((product) => product.photos.map((photo) => photo.converted))).toEqual(
      expect.arrayContaining([expect.stringMatching(/CMYK/), null, null]),
    );
  }, 60_000);

  it("is refused in the same words through the app's own path, and scans once the disk is mended", async () => {
    const h = await startCoreHarness();
    const appDisk = smallDisk(h.dir, { sizeBytes: 4 * 1024 * 1024, freeBytes: 48 * 1024 });
    try {
      await callCore(h.core, 'settings:set', { libraryDir: appDisk.library });
      const refused = await h.core.dispatch('ingest:scan', { inputs: [photos] });
      expect(refused).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'refused',
          message: expect.stringMatching(
            canMount
              ? new RegExp(`^The disk that holds ${appDisk.library}\\S* is full: free some space`)
              : new RegExp(`^Adbatch is not allowed to write ${appDisk.library}`),
          ),
        }),
      });
      await appDisk.mend();
      const plan = await callCore(h.core, 'ingest:scan', { inputs: [photos] });
      expect(plan.problems).toEqual([]);
      expect(plan.products.flatMap((product) => product.photos)).toHaveLength(3);
    } finally {
      await appDisk.close();
      await h.close();
    }
  }, 60_000);
});
