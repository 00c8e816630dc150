import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupTakenAt } from '../../../../src-main/core/db/backup-mark.ts';
import {
  backupName,
  backupsDir,
  DatabaseBackups,
  latestBackup,
} from '../../../../src-main/core/db/backups.ts';
import { DamagedDatabaseError } from '../../../../src-main/core/db/check.ts';
import { type Db, databaseFile, openDatabase } from '../../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../../src-main/core/queue/store.ts';
import { damageTable, quickCheckOf } from '../../../support/damaged-database.ts';
import { newBatch, products, T0 } from '../queue/store-fixtures.ts';

// The automatic backup a damaged database is restored from (issue 27, point 7): SQLite's online backup of
// a real database file, checked, named by its moment, the two newest kept.

let dataDir: string;
let db: Db;
let clock: number;
let backups: DatabaseBackups;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adbatch-backups-'));
  db = openDatabase(databaseFile(dataDir));
  clock = T0;
  backups = new DatabaseBackups(db, dataDir, () => clock);
});
afterEach(async () => {
  if (db.open) db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const batchesIn = (file: string) => {
  const copy = new Database(file, { readonly: true });
  try {
    return copy.prepare<[], { name: string }>('SELECT name FROM batches ORDER BY name').all();
  } finally {
    copy.close();
  }
};

describe('the automatic backup', () => {
  it('is a sound copy of the database, one file, named by its moment', async () => {
    new QueueStore(db, () => clock).createBatch(newBatch({ name: 'Spring', products: products(30) }));
    const file = await backups.take();
    expect(file).toBe(join(backupsDir(dataDir), backupName(T0)));
    expect(backupName(T0)).toMatch(/^adbatch-\d{4}-\d{2}-\d{2}-\d{6}\.db$/);
    expect(await readdir(backupsDir(dataDir))).toEqual([backupName(T0)]);
    expect(quickCheckOf(file)).toEqual(['ok']);
    expect(batchesIn(file)).toEqual([{ name: 'Spring' }]);
    // Out of WAL mode: restoring it is copying this one file.
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
    expect(latestBackup(dataDir)).toBe(file);
  });

  it('is marked as a backup taken at its moment, in the copy only', async () => {
    new QueueStore(db, () => clock).createBatch(newBatch());
    const file = await backups.take();
    const copy = new Database(file, { readonly: true });
    try {
      expect(backupTakenAt(copy)).toBe(T0);
    } finally {
      copy.close();
    }
    // The live database is no backup: opening it again holds nothing.
    expect(backupTakenAt(db)).toBeNull();
  });

  it('keeps the two newest', async () => {
    const store = new QueueStore(db, () => clock);
    const taken: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      store.createBatch(newBatch({ name }));
      taken.push(await backups.take());
      clock += 60_000;
    }
    expect((await readdir(backupsDir(dataDir))).sort()).toEqual(
      [backupName(T0 + 60_000), backupName(T0 + 120_000)].sort(),
    );
    expect(latestBackup(dataDir)).toBe(taken[2]);
    expect(batchesIn(taken[2]!).map((batch) => batch.name)).toEqual(['One', 'Three', 'Two']);
  });

  it('of a damaged database is refused, and the sound one before it stays the last', async () => {
    new QueueStore(db, () => clock).createBatch(newBatch({ products: products(40) }));
    const sound = await backups.take();
    db.close();
    damageTable(databaseFile(dataDir), 'jobs');
    // A connection opened before the damage, as the app's is: it copies what it reads.
    db = new Database(databaseFile(dataDir));
    clock += 60_000;
    await expect(new DatabaseBackups(db, dataDir, () => clock).take()).rejects.toBeInstanceOf(
      DamagedDatabaseError,
    );
    expect(await readdir(backupsDir(dataDir))).toEqual([backupName(T0)]);
    expect(latestBackup(dataDir)).toBe(sound);
    expect(quickCheckOf(sound)).toEqual(['ok']);
  });

  it('taken twice at once is taken once', async () => {
    const [first, second] = await Promise.all([backups.take(), backups.take()]);
    expect(first).toBe(second);
    expect(existsSync(first)).toBe(true);
  });

  it('is none where none was taken', () => {
    expect(latestBackup(dataDir)).toBeNull();
  });
});
