import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMain, state, waitFor } from '../../support/electron-main-fake.ts';
import { type SmallDisk, smallDisk } from '../../support/small-disk.ts';

// The built main process whose data folder cannot be written (its disk full; without root, a folder it
// may not write in): it says so in a dialog, in one sentence, and exits, instead of dying with a stack
// trace or not opening at all.

const MAIN = resolve(import.meta.dirname, '../../../out/main/index.js');
let dir: string;
let disk: SmallDisk;

afterAll(async () => {
  delete process.env.ADBATCH_DATA_DIR;
  await disk?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the app, its data folder on a full disk', () => {
  it('says why in a dialog and exits', async () => {
    dir = await mkdtemp(join(tmpdir(), 'adbatch-main-fault-'));
    disk = smallDisk(dir, { sizeBytes: 4 * 1024 * 1024, freeBytes: 0 });
    if (disk.kind === 'tmpfs') await disk.fill();
    const dataDir = join(disk.library, 'data');
    process.env.ADBATCH_DATA_DIR = dataDir;
    await startMain(MAIN, dir);
    state.ready();
    await waitFor(() => state.ended, 'the exit');
    expect(state.exitCode).toBe(1);
    expect(state.errorBoxes).toEqual([
      {
        title: 'Adbatch cannot start',
        message:
          disk.kind === 'tmpfs'
            ? `The disk that holds Adbatch's data folder (${dataDir}) is full. Adbatch records every job before it sends it, so it sends nothing until then. Free some space and resume.`
            : `Adbatch may not write in its data folder (${dataDir}). Adbatch records every job before it sends it, so it sends nothing until then. Allow it, or set ADBATCH_DATA_DIR to another folder, and resume.`,
      },
    ]);
  }, 30_000);
});
