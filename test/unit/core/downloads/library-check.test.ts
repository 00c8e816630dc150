import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libraryFault } from '../../../../src-main/core/downloads/library-check.ts';

// Before a result is written: a missing library is made again only when the batch has nothing saved in it
// and it is not on a drive that is gone; a batch with saved results whose folder went away is not given a
// second folder at the old place.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-library-check-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('libraryFault', () => {
  it('makes a deleted library again (with its missing parents) for a batch with nothing saved', async () => {
    const library = join(dir, 'Pictures', 'Adbatch', 'Clients');
    expect(await libraryFault(library, 'Spring (abcdef)', false)).toBeNull();
    expect(existsSync(library)).toBe(true);
  });

  it('says the library is gone when the batch saved results there, and makes nothing', async () => {
    const library = join(dir, 'library');
    expect(await libraryFault(library, 'Spring (abcdef)', true)).toEqual({ kind: 'gone', code: 'ENOENT' });
    expect(existsSync(library)).toBe(false);
  });

  it("says the batch's folder is gone from a library that is there", async () => {
    const library = join(dir, 'library');
    await mkdir(join(library, 'Other (123456)'), { recursive: true });
    expect(await libraryFault(library, 'Spring (abcdef)', true)).toEqual({
      kind: 'batch_folder_gone',
      code: 'ENOENT',
      folder: join(library, 'Spring (abcdef)'),
    });
    expect(await libraryFault(library, 'Spring (abcdef)', false)).toBeNull();
    await mkdir(join(library, 'Spring (abcdef)'));
    expect(await libraryFault(library, 'Spring (abcdef)', true)).toBeNull();
  });

  it.skipIf(!existsSync('/mnt'))('does not make a library on a drive that is not mounted', async () => {
    const library = `/mnt/adbatch-unplugged-${process.pid}/Adbatch`;
    expect(await libraryFault(library, 'Spring (abcdef)', false)).toEqual({ kind: 'gone', code: 'ENOENT' });
    expect(existsSync(`/mnt/adbatch-unplugged-${process.pid}`)).toBe(false);
  });
});
