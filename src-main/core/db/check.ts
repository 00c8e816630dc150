import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

// A damaged database is refused, never read as empty: a page of garbage in a table once made `adbatch
// resume` answer "Every batch has finished." and exit 0. SQLite's `quick_check` walks every page of every
// table and index (it skips only the cross-check of indexes against their tables, the costly part of
// `integrity_check`): about 20 ms for a database of 1,000 jobs (`npm run bench:database`, docs/engine.md). It runs on a
// read-only connection before the database is opened for writing, so a damaged file is refused without a
// byte of it or of its write-ahead log being changed (no migration, no checkpoint at the close).

/** Findings past the first few say nothing more to a person, and cost time on a badly damaged file. */
const FINDINGS_KEPT = 10;

/**
 * SQLite found the database damaged: by `quick_check`, or as SQLITE_CORRUPT / SQLITE_NOTADB on the way.
 * It carries SQLite's own code, so every fault of the data folder is told apart the same way.
 */
export class DamagedDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly findings: readonly string[],
    readonly code: 'SQLITE_CORRUPT' | 'SQLITE_NOTADB' = 'SQLITE_CORRUPT',
  ) {
    super(`${file} is damaged: ${findings.join('; ')}`);
  }
}

/** What `quick_check` found wrong in an open database; empty when it is sound. */
export function quickCheck(db: Database.Database): string[] {
  const rows = db.pragma(`quick_check(${FINDINGS_KEPT})`, { simple: false }) as Array<{
    quick_check: string;
  }>;
  const findings = rows.map((row) => row.quick_check);
  return findings.length === 1 && findings[0] === 'ok' ? [] : findings;
}

/**
 * Throws DamagedDatabaseError when the existing database file is damaged. What else stops a read-only look
 * (a disk gone, a full disk where its index cannot be made) is thrown as SQLite says it, for the caller to
 * put in words as it does when the opening for writing fails.
 *
 * `backedUp`: automatic backups of the data folder's database were taken. A file with no table in it is
 * then damaged too, not new: SQLite reads an emptied file (a disk that failed as it was written, a sync
 * tool that truncated it) as an empty database, which the open would make afresh, and every front end
 * would say "no batches" while the backups hold them. So is a file that is gone (deleted by hand or by a
 * cleaner, moved by a sync tool): the open would make a new one just the same.
 */
export function checkDatabaseFile(file: string, { backedUp }: { backedUp: boolean }): void {
  if (!existsSync(file)) {
    if (backedUp) throw new DamagedDatabaseError(file, ['it is missing, though backups of it were taken']);
    return;
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    refuseDamaged(db, file);
    if (backedUp && tableCount(db) === 0)
      throw new DamagedDatabaseError(file, ['it holds no tables, though backups of it were taken']);
  } finally {
    db.close();
  }
}

function tableCount(db: Database.Database): number {
  return db.prepare<[], { tables: number }>('SELECT count(*) AS tables FROM sqlite_master').get()!.tables;
}

/**
 * Throws DamagedDatabaseError when the open database is damaged: by quick_check's findings, or by SQLite's
 * own error when the check meets a page it cannot read at all (or a file that is no database).
 */
export function refuseDamaged(db: Database.Database, file: string): void {
  let findings: string[];
  try {
    findings = quickCheck(db);
  } catch (error) {
    if (!isDamage(error)) throw error;
    const { code, message } = error as { code: string; message: string };
    throw new DamagedDatabaseError(
      file,
      [message],
      code.startsWith('SQLITE_NOTADB') ? 'SQLITE_NOTADB' : 'SQLITE_CORRUPT',
    );
  }
  if (findings.length > 0) throw new DamagedDatabaseError(file, findings);
}

/** Whether SQLite's error says the file is damaged or is not a database at all. */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}
