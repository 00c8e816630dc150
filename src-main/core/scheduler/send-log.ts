import type { Db } from '../db/open.ts';
import { ServiceHealth } from './service-trouble.ts';

// What one key has sent, as every request budget of that key in this process sees it. An engine that is
// restarted (a new budget margin) while a balance check still waits for a slot of the old one, or two
// engines on one database, would otherwise each count only their own requests, and together pass the limit;
// so the log is one object per database and key, and the 429 back-off lives here too: it is the key that
// was refused, not one budget; so does whether the key's requests are answered at all. Sent requests are
// also written to `request_log`, for the next process.

/**
 * One request of the key. `pending`: its slot is taken, the request is being prepared or is on its way, so
 * it counts as leaving now. `sent`: it left at `at` and nothing more is known of when the service counted it.
 * `answered`: the service answered at `at`, so it had counted the request by then.
 */
export interface Sent {
  at: number;
  phase: 'pending' | 'sent' | 'answered';
  /** The `request_log` row once written, so a late answer can move it. */
  rowId: number | bigint | null;
}

const logs = new WeakMap<Db, Map<string, SendLog>>();

export class SendLog {
  entries: Sent[] = [];
  blockedUntil = 0;
  consecutive429 = 0;
  last429At = Number.NEGATIVE_INFINITY;
  /** Whether the key's requests are answered lately: what its batches say instead of their time left. */
  readonly health: ServiceHealth;
  /** Rows older than this were not read; a budget with a longer window reads them (`cover`). */
  private loadedSince = Number.POSITIVE_INFINITY;
  /** The longest span any budget of the key looks back: entries older than it are forgotten. */
  private horizonMs = 0;

  private constructor(
    private readonly db: Db,
    readonly keyId: string,
  ) {
    this.health = new ServiceHealth(db, keyId);
  }

  /** The log of this key on this database, shared by every budget of the key in this process. */
  static of(db: Db, keyId: string): SendLog {
    let byKey = logs.get(db);
    if (!byKey) {
      byKey = new Map();
      logs.set(db, byKey);
    }
    let log = byKey.get(keyId);
    if (!log) {
      log = new SendLog(db, keyId);
      byKey.set(keyId, log);
    }
    return log;
  }

  /** Makes sure every request sent since `since` is known, reading older rows from the database if needed. */
  cover(since: number, horizonMs: number): void {
    this.horizonMs = Math.max(this.horizonMs, horizonMs);
    if (since >= this.loadedSince) return;
    const rows = this.db
      .prepare('SELECT rowid, at FROM request_log WHERE key_id = ? AND at > ? AND at <= ? ORDER BY at')
      .all(
        this.keyId,
        since,
        Number.isFinite(this.loadedSince) ? this.loadedSince : Number.MAX_SAFE_INTEGER,
      ) as Array<{
      rowid: number;
      at: number;
    }>;
    // Rows written by this process are already entries: only older ones are read, so none is counted twice.
    const known = new Set(
      this.entries
        .map((entry) => entry.rowId)
        .filter((id) => id !== null)
        .map(Number),
    );
    const older = rows
      .filter((row) => !known.has(row.rowid))
      .map((row): Sent => ({ at: row.at, phase: 'sent', rowId: row.rowid }));
    this.entries = [...older, ...this.entries];
    this.loadedSince = since;
  }

  /** Forgets what no budget of the key can need any more; a request not yet answered stays. */
  prune(now: number): void {
    const cutoff = now - this.horizonMs;
    this.entries = this.entries.filter((entry) => entry.phase === 'pending' || entry.at > cutoff);
  }

  /** Writes a request that left, so that a restart cannot burst past the limit. */
  write(entry: Sent): void {
    entry.rowId = this.db
      .prepare('INSERT INTO request_log (key_id, at) VALUES (?, ?)')
      .run(this.keyId, entry.at).lastInsertRowid;
  }

  /** Moves a written request later (its answer came late), so that a restart counts it as long as we do. */
  move(entry: Sent, at: number): void {
    if (entry.rowId === null) return;
    this.db.prepare('UPDATE request_log SET at = ? WHERE rowid = ?').run(at, entry.rowId);
  }

  /** Deletes the key's rows written at or before `before`. */
  compact(before: number): void {
    this.db.prepare('DELETE FROM request_log WHERE key_id = ? AND at <= ?').run(this.keyId, before);
  }

  remove(entry: Sent): void {
    this.entries = this.entries.filter((kept) => kept !== entry);
  }
}
