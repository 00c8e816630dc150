import { existsSync } from 'node:fs';
import { localFaultOf } from '../util/local-fault.ts';
import { backupsDir, latestBackup } from './backups.ts';
import { DATABASE_FILE, databaseFile } from './open.ts';

// The data folder (the queue's database, the lease) cannot be written: its disk is full, it is read-only or
// not writable, or it is gone; or SQLite found the database damaged. Every job is recorded before it is
// sent, so nothing is sent while this lasts; the user gets one sentence saying why and what to do, never a
// stack trace.

export type DataFolderFaultKind = 'disk_full' | 'not_writable' | 'gone' | 'damaged';

export class DataFolderError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly kind: DataFolderFaultKind,
  ) {
    super(message);
  }
}

const SQLITE_KINDS: Array<[RegExp, DataFolderFaultKind]> = [
  [/^SQLITE_FULL/, 'disk_full'],
  [/^SQLITE_READONLY/, 'not_writable'],
  [/^SQLITE_PERM/, 'not_writable'],
  [/^SQLITE_CANTOPEN/, 'gone'],
  [/^SQLITE_IOERR/, 'gone'],
  [/^SQLITE_CORRUPT/, 'damaged'],
  [/^SQLITE_NOTADB/, 'damaged'],
];

/** A write of the database that failed for a reason of its disk, or its damage (SQLite's own code), or null. */
export function sqliteFaultOf(error: unknown): { kind: DataFolderFaultKind; code: string } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  for (const [pattern, kind] of SQLITE_KINDS) if (pattern.test(code)) return { kind, code };
  return null;
}

/**
 * The data folder fault behind an error met while opening the data folder (SQLite's code, or the OS's: only
 * there does an OS error surely concern the data folder), or null.
 */
export function dataFolderFaultOf(error: unknown): { kind: DataFolderFaultKind; code: string } | null {
  const sqlite = sqliteFaultOf(error);
  if (sqlite) return sqlite;
  const local = localFaultOf(error);
  if (!local) return null;
  const kind = local.kind === 'disk_full' ? 'disk_full' : local.kind === 'gone' ? 'gone' : 'not_writable';
  return { kind, code: local.code };
}

/**
 * A damaged database in one sentence: where it is, that Adbatch changed nothing (it was refused before a
 * write, and nothing is written or sent after), and how to put the last automatic backup in its place
 * (its write-ahead log and index go too: left beside the backup, they would be replayed into it), and that
 * what it brings back waits for the person (queue/restored-backup.ts: what it shows unsent may have been sent).
 */
function describeDamage(dataDir: string): string {
  const backup = latestBackup(dataDir);
  if (backup && !existsSync(databaseFile(dataDir))) return describeMissing(dataDir, backup);
  const damaged = `Adbatch's database ${databaseFile(dataDir)} is damaged, so Adbatch changed nothing in it and sends nothing`;
  const files = `${DATABASE_FILE}, ${DATABASE_FILE}-wal and ${DATABASE_FILE}-shm`;
  if (!backup)
    return `${damaged}: there is no automatic backup to restore yet (one is taken each time a batch starts), so to start afresh quit Adbatch and move ${files} out of ${dataDir}.`;
  return `${damaged}: to restore the last automatic backup, quit Adbatch, move ${files} out of ${dataDir}, and copy ${backup} there as ${DATABASE_FILE}; its unfinished batches come back paused for you to check.`;
}

/**
 * A database gone from a data folder that holds its backups (check.ts): refused as a damaged one is, since
 * a new one made in its place would say "no batches". Restoring needs only the copy; a log left beside the
 * missing file would be replayed into it. Starting afresh is the person's choice, made by moving the backups
 * away, never Adbatch's.
 */
function describeMissing(dataDir: string, backup: string): string {
  return `Adbatch's database ${databaseFile(dataDir)} is missing though ${dataDir} holds its automatic backups, so Adbatch made no new one and sends nothing: to restore the last one, quit Adbatch, move any ${DATABASE_FILE}-wal and ${DATABASE_FILE}-shm out of ${dataDir}, and copy ${backup} there as ${DATABASE_FILE}; its unfinished batches come back paused for you to check. To start afresh instead, move ${backupsDir(dataDir)} out of ${dataDir}.`;
}

/** The fault in words: what Adbatch does about it (sends nothing) and what the user can do. */
export function describeDataFolderFault(kind: DataFolderFaultKind, dataDir: string): string {
  const why = 'Adbatch records every job before it sends it, so it sends nothing until then.';
  switch (kind) {
    case 'disk_full':
      return `The disk that holds Adbatch's data folder (${dataDir}) is full. ${why} Free some space and resume.`;
    case 'not_writable':
      return `Adbatch may not write in its data folder (${dataDir}). ${why} Allow it, or set ADBATCH_DATA_DIR to another folder, and resume.`;
    case 'gone':
      return `Adbatch's data folder (${dataDir}) cannot be read or written: its disk may be gone or failing. ${why} Bring it back and resume.`;
    case 'damaged':
      return describeDamage(dataDir);
  }
}

/** The error as a DataFolderError when it is a data folder fault; else the error itself. */
export function asDataFolderError(error: unknown, dataDir: string): unknown {
  if (error instanceof DataFolderError) return error;
  const fault = dataFolderFaultOf(error);
  return fault
    ? new DataFolderError(describeDataFolderFault(fault.kind, dataDir), fault.code, fault.kind)
    : error;
}
