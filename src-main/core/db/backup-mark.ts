import type Database from 'better-sqlite3';

// The mark every automatic backup carries, so that core knows a database is a restored backup when it
// opens it as adbatch.db: the copy predates what was sent after it, and sending its unsent jobs again could
// pay twice (core/queue/restored-backup.ts holds them). The choice: a table of the copy's own, `backup_mark`,
// one row with the moment the copy was taken, written into the copy before it takes its name. It is never in
// the live database (no migration makes it) and is dropped in the transaction that holds what the copy
// showed unsent, so a restore is handled once. A table rather than `PRAGMA application_id`: it says when the
// copy was taken, which the words for the person need, and leaves the file's identity alone.

const MARK_TABLE = 'backup_mark';

/** Marks a copy of the database as a backup taken at `takenAt` (the copy alone: never the live database). */
export function markAsBackup(copy: Database.Database, takenAt: number): void {
  copy.transaction(() => {
    copy.exec(`CREATE TABLE ${MARK_TABLE} (taken_at INTEGER NOT NULL)`);
    copy.prepare(`INSERT INTO ${MARK_TABLE} (taken_at) VALUES (?)`).run(takenAt);
  })();
}

/** When the backup this database was restored from was taken; null for a database that is no backup. */
export function backupTakenAt(db: Database.Database): number | null {
  const marked = db
    .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(MARK_TABLE);
  if (!marked) return null;
  // The table and its row are written in one transaction: a marked copy always says when it was taken.
  return db.prepare<[], { taken_at: number }>(`SELECT taken_at FROM ${MARK_TABLE}`).get()?.taken_at ?? null;
}

/** The database is handled as the backup it was restored from: it is the live database from now on. */
export function clearBackupMark(db: Database.Database): void {
  db.exec(`DROP TABLE IF EXISTS ${MARK_TABLE}`);
}
