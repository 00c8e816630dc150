import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { type Db, openDatabase } from '../../src-main/core/db/open.ts';

// For unit tests of what keeps its state in SQLite (the request budget, learned durations): each test of
// the file gets a real, migrated database file of its own in a fresh temp dir, removed after it, and a
// clock it moves by hand.

export interface DatabasePerTest {
  /** This test's database; after `reopen`, the reopened one. */
  readonly db: Db;
  /** Moved by hand; back at the start before each test. */
  readonly clock: { now: number };
  readonly now: () => number;
  /** Closes the database and opens its file again, as a restarted process would. */
  reopen(): void;
}

/** Call at the top of a test file: registers the `beforeEach` that opens the database and cleans up. */
export function databasePerTest(startAt: number): DatabasePerTest {
  let file = '';
  let db: Db | null = null;
  const clock = { now: startAt };
  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adbatch-db-'));
    file = join(dir, 'adbatch.db');
    db = openDatabase(file);
    clock.now = startAt;
    return async () => {
      db?.close();
      db = null;
      await rm(dir, { recursive: true, force: true });
    };
  });
  return {
    get db() {
      if (!db) throw new Error('the database is opened before each test, not outside one');
      return db;
    },
    clock,
    now: () => clock.now,
    reopen() {
      db?.close();
      db = openDatabase(file);
    },
  };
}
