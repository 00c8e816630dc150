import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { damageTable, fingerprint } from '../../support/damaged-database.ts';
import { startMain, state, waitFor } from '../../support/electron-main-fake.ts';
import { newBatch, T0 } from '../core/queue/store-fixtures.ts';

// The built main process whose database is damaged (issue 27, point 7): it says so in a dialog, in the one
// sentence every front end says, and exits without having changed the database, instead of opening on an
// empty or half-read queue.

const MAIN = resolve(import.meta.dirname, '../../../out/main/index.js');
let dir: string;

afterAll(async () => {
  delete process.env.ADBATCH_DATA_DIR;
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the app, its database damaged', () => {
  it('says so in a dialog, with where it is and how to restore it, and exits', async () => {
    dir = await mkdtemp(join(tmpdir(), 'adbatch-main-damaged-'));
    const dataDir = join(dir, 'data');
    const file = databaseFile(dataDir);
    const db = openDatabase(file);
    new QueueStore(db, () => T0).createBatch(newBatch());
    db.close();
    damageTable(file, 'batches');
    const before = fingerprint(file);
    process.env.ADBATCH_DATA_DIR = dataDir;
    await startMain(MAIN, dir);
    state.ready();
    await waitFor(() => state.ended, 'the exit');
    expect(state.exitCode).toBe(1);
    expect(state.errorBoxes).toEqual([
      {
        title: 'Adbatch cannot start',
        message: `Adbatch's database ${file} is damaged, so Adbatch changed nothing in it and sends nothing: there is no automatic backup to restore yet (one is taken each time a batch starts), so to start afresh quit Adbatch and move adbatch.db, adbatch.db-wal and adbatch.db-shm out of ${dataDir}.`,
      },
    ]);
    expect(fingerprint(file)).toBe(before);
  }, 30_000);
});
