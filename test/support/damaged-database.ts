import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

// A database damaged as a failing disk or a stray write damages one: a page that holds a table's rows
// overwritten with garbage. The page is found with SQLite's dbstat table (its write-ahead log folded into
// the file first), so the damage is where a read of the table meets it, not in free space a check skips.

export interface Damage {
  /** The page overwritten, numbered from 1 as SQLite numbers them. */
  page: number;
  pageSize: number;
}

/** Overwrites one leaf page of `table` with random bytes; the database must not be open elsewhere. */
export function damageTable(file: string, table: string): Damage {
  const db = new Database(file);
  let page: number;
  let pageSize: number;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    pageSize = db.pragma('page_size', { simple: true }) as number;
    const leaf = db
      .prepare<[string], { pageno: number }>(
        "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno DESC LIMIT 1",
      )
      .get(table);
    if (!leaf) throw new Error(`${table} has no leaf page in ${file}`);
    page = leaf.pageno;
  } finally {
    db.close();
  }
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return { page, pageSize };
}

/**
 * What `PRAGMA quick_check` says of the file, read-only: ['ok'] when it is sound; its findings, or the
 * error it stopped on (a page it cannot read at all), when it is not.
 */
export function quickCheckOf(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('quick_check') as Array<{ quick_check: string }>).map((row) => row.quick_check);
  } catch (error) {
    return [`${(error as { code?: string }).code}: ${(error as Error).message}`];
  } finally {
    db.close();
  }
}

/** The file's bytes in short: equal before and after means nothing wrote to it. */
export function fingerprint(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
