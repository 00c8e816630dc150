import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the engine's database and brings its schema up to date.
 * WAL lets readers (status, the UI) run beside the writer; synchronous=FULL makes every commit durable,
 * because a commit is what stands between a crash and paying twice.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS);
  return db;
}
