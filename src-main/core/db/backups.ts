import { readdirSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { localMoment } from '../../shared/local-time.ts';
import { makeFolders } from '../util/make-folders.ts';
import { markAsBackup } from './backup-mark.ts';
import { refuseDamaged } from './check.ts';
import type { Db } from './open.ts';

// The automatic backup a damaged database is restored from: a copy of the database taken each time a
// batch starts, with SQLite's online backup API (`db.backup`, a hundred pages a step, the event loop free
// between steps), into `<data folder>/backups/adbatch-<YYYY-MM-DD-HHMMSS>.db`. The copy is checked before
// it counts (a damaged database copies its damage), and only then takes its name, so a half-written or
// damaged copy never replaces a sound one. Before it takes its name it is marked as a backup (a table of its
// own, backup-mark.ts): a restored copy predates what was sent after it, and core holds what it shows unsent
// for the person to check (queue/restored-backup.ts). Guess: the two newest are kept, so that a copy taken
// just before the damage showed still leaves the one before it.

export const BACKUPS_FOLDER = 'backups';
const KEPT = 2;
const BACKUP_NAME = /^adbatch-\d{4}-\d{2}-\d{2}-\d{6}\.db$/;

export function backupsDir(dataDir: string): string {
  return join(dataDir, BACKUPS_FOLDER);
}

/** The backup's name for this moment, in local time: names sort as their moments do. */
export function backupName(at: number): string {
  const { date, hours, minutes, seconds } = localMoment(at);
  return `adbatch-${date}-${hours}${minutes}${seconds}.db`;
}

/** The newest automatic backup in the data folder, or null when none was taken. */
export function latestBackup(dataDir: string): string | null {
  let names: string[];
  try {
    names = readdirSync(backupsDir(dataDir));
  } catch {
    return null;
  }
  const newest = names
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .at(-1);
  return newest ? join(backupsDir(dataDir), newest) : null;
}

export class DatabaseBackups {
  private taking: Promise<string> | null = null;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** Takes a backup now (or joins the one being taken) and answers its path; the older past two go. */
  take(): Promise<string> {
    this.taking ??= this.copy().finally(() => {
      this.taking = null;
    });
    return this.taking;
  }

  /** Waits for a backup being taken, whatever its outcome: the database is closed only after it. */
  async settle(): Promise<void> {
    await this.taking?.catch(() => {});
  }

  private async copy(): Promise<string> {
    const dir = backupsDir(this.dataDir);
    await makeFolders(dir);
    const takenAt = this.now();
    const file = join(dir, backupName(takenAt));
    const part = `${file}.part`;
    try {
      await this.db.backup(part);
      sealCopy(part, this.db.name, takenAt);
      await rename(part, file);
    } finally {
      await rm(part, { force: true });
    }
    const names = (await readdir(dir)).filter((name) => BACKUP_NAME.test(name)).sort();
    await Promise.all(names.slice(0, -KEPT).map((name) => rm(join(dir, name), { force: true })));
    return file;
  }
}

/**
 * Refuses a copy of a damaged database (DamagedDatabaseError, naming the source); a sound one is then made
 * a file of its own (out of WAL mode, as the source is), so that restoring it is copying one file, and
 * marked as the backup taken at `takenAt`.
 */
function sealCopy(file: string, source: string, takenAt: number): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    refuseDamaged(copy, source);
    copy.pragma('journal_mode = DELETE');
    markAsBackup(copy, takenAt);
  } finally {
    copy.close();
  }
}
