import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { makeFoldersSync } from '../util/make-folders.ts';
import { latestBackup } from './backups.ts';
import { checkDatabaseFile } from './check.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type Db = Database.Database;

/** The queue's database in a data folder. */
export const DATABASE_FILE = 'adbatch.db';

export function databaseFile(dataDir: string): string {
  return join(dataDir, DATABASE_FILE);
}

/**
 * Opens (creating if needed) the engine's database and brings its schema up to date; an existing file that
 * SQLite finds damaged, or that was emptied while the data folder holds its backups, is refused before
 * anything is written (check.ts).
 * WAL lets readers (status, the UI) run beside the writer; synchronous=FULL makes every commit durable,
 * because a commit is what stands between a crash and paying twice.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') {
    makeFoldersSync(dirname(file));
    checkDatabaseFile(file, { backedUp: latestBackup(dirname(file)) !== null });
  }
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
