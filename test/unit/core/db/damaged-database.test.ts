import { existsSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupName, backupsDir } from '../../../../src-main/core/db/backups.ts';
import { DamagedDatabaseError } from '../../../../src-main/core/db/check.ts';
import { asDataFolderError, DataFolderError } from '../../../../src-main/core/db/data-folder-fault.ts';
import { databaseFile, openDatabase } from '../../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../../src-main/core/queue/store.ts';
import { damageTable, fingerprint, quickCheckOf } from '../../../support/damaged-database.ts';
import { newBatch, products, T0 } from '../queue/store-fixtures.ts';

// A damaged database is refused, never read as empty (issue 27, point 7): a real database file with a page
// of a table overwritten by garbage, opened as createCore opens it.

let dataDir: string;
let file: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adbatch-damaged-'));
  file = databaseFile(dataDir);
  const db = openDatabase(file);
  new QueueStore(db, () => T0).createBatch(newBatch({ products: products(40) }));
  db.close();
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** What opening the database as createCore opens it threw; null when it opened. */
function refusalToOpen(): unknown {
  try {
    openDatabase(file).close();
    return null;
  } catch (error) {
    return error;
  }
}

/** The sentence every front end shows for this data folder. */
function sentence(error: unknown): string {
  const fault = asDataFolderError(error, dataDir);
  expect(fault).toBeInstanceOf(DataFolderError);
  expect((fault as DataFolderError).kind).toBe('damaged');
  return (fault as DataFolderError).message;
}

describe('a damaged database', () => {
  it('is refused at the open, as quick_check finds it, without a byte of it changed', () => {
    const damage = damageTable(file, 'jobs');
    expect(damage.page).toBeGreaterThan(1);
    expect(quickCheckOf(file)).not.toEqual(['ok']);
    const before = fingerprint(file);
    const refused = refusalToOpen();
    expect(refused).toBeInstanceOf(DamagedDatabaseError);
    expect((refused as DamagedDatabaseError).file).toBe(file);
    expect(fingerprint(file)).toBe(before);
    expect(sentence(refused)).toBe(
      `Adbatch's database ${file} is damaged, so Adbatch changed nothing in it and sends nothing: there is no automatic backup to restore yet (one is taken each time a batch starts), so to start afresh quit Adbatch and move adbatch.db, adbatch.db-wal and adbatch.db-shm out of ${dataDir}.`,
    );
  });

  it('names the newest automatic backup and how to put it in its place', async () => {
    await mkdir(backupsDir(dataDir));
    const older = join(backupsDir(dataDir), backupName(T0));
    const newer = join(backupsDir(dataDir), backupName(T0 + 86_400_000));
    await copyFile(file, older);
    await copyFile(file, newer);
    // Neither a half-written copy nor another file counts.
    await writeFile(join(backupsDir(dataDir), `${backupName(T0 + 2 * 86_400_000)}.part`), '');
    await writeFile(join(backupsDir(dataDir), 'notes.txt'), '');
    damageTable(file, 'batches');
    const refused = refusalToOpen();
    expect(refused).toBeInstanceOf(DamagedDatabaseError);
    expect(sentence(refused)).toBe(
      `Adbatch's database ${file} is damaged, so Adbatch changed nothing in it and sends nothing: to restore the last automatic backup, quit Adbatch, move adbatch.db, adbatch.db-wal and adbatch.db-shm out of ${dataDir}, and copy ${newer} there as adbatch.db; its unfinished batches come back paused for you to check.`,
    );
  });

  it('is refused when it is not a database at all (SQLITE_NOTADB)', async () => {
    await rm(file);
    await writeFile(file, Buffer.alloc(64 * 1024, 0x5a));
    const refused = refusalToOpen();
    expect(refused).toBeInstanceOf(DamagedDatabaseError);
    expect((refused as DamagedDatabaseError).code).toBe('SQLITE_NOTADB');
    expect(sentence(refused)).toMatch(/^Adbatch's database .+ is damaged, so Adbatch changed nothing/);
  });

  it('met later, as SQLITE_CORRUPT from a query, is the same fault', () => {
    damageTable(file, 'products');
    // Opened without the check, as a connection opened before the damage reads it.
    const raw = new Database(file);
    let met: unknown = null;
    try {
      raw.prepare('SELECT count(*) FROM products WHERE name IS NOT NULL').get();
    } catch (error) {
      met = error;
    } finally {
      raw.close();
    }
    expect((met as { code?: string }).code).toMatch(/^SQLITE_CORRUPT/);
    expect(sentence(met)).toMatch(/^Adbatch's database .+ is damaged/);
  });

  it('is refused when it was emptied while backups of it were taken, and left as it was', async () => {
    await mkdir(backupsDir(dataDir));
    const backup = join(backupsDir(dataDir), backupName(T0));
    await copyFile(file, backup);
    // As a disk that failed as it was written, or a sync tool, leaves it: no byte, no log beside it.
    for (const name of ['', '-wal', '-shm']) await rm(`${file}${name}`, { force: true });
    await writeFile(file, '');
    const refused = refusalToOpen();
    expect(refused).toBeInstanceOf(DamagedDatabaseError);
    expect(sentence(refused)).toContain(`and copy ${backup} there as adbatch.db;`);
    expect(statSync(file).size).toBe(0);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('is refused when it is gone while backups of it were taken, and no new one is made', async () => {
    await mkdir(backupsDir(dataDir));
    const backup = join(backupsDir(dataDir), backupName(T0));
    await copyFile(file, backup);
    // As a cleaner or a sync tool leaves it: the file gone, its log left behind.
    await rm(file);
    const refused = refusalToOpen();
    expect(refused).toBeInstanceOf(DamagedDatabaseError);
    expect(sentence(refused)).toBe(
      `Adbatch's database ${file} is missing though ${dataDir} holds its automatic backups, so Adbatch made no new one and sends nothing: to restore the last one, quit Adbatch, move any adbatch.db-wal and adbatch.db-shm out of ${dataDir}, and copy ${backup} there as adbatch.db; its unfinished batches come back paused for you to check. To start afresh instead, move ${backupsDir(dataDir)} out of ${dataDir}.`,
    );
    expect(existsSync(file)).toBe(false);
    // Done as it says, the batch is back.
    for (const name of ['-wal', '-shm']) await rm(`${file}${name}`, { force: true });
    await copyFile(backup, file);
    const db = openDatabase(file);
    try {
      expect(db.prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('an empty file with no backup beside it is a new database (a first start cut short)', async () => {
    for (const name of ['', '-wal', '-shm']) await rm(`${file}${name}`, { force: true });
    await writeFile(file, '');
    const db = openDatabase(file);
    try {
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'batches'").get()).toEqual({
        n: 1,
      });
    } finally {
      db.close();
    }
  });

  it('a sound database opens as before, and a new one is made where none is', () => {
    openDatabase(file).close();
    const fresh = join(dataDir, 'other', 'adbatch.db');
    openDatabase(fresh).close();
    expect(existsSync(fresh)).toBe(true);
    expect(quickCheckOf(fresh)).toEqual(['ok']);
  });
});
