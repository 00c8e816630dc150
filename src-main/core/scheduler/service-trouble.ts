import type { ServiceTrouble } from '../../shared/models.ts';
import { MalformedResponseError, NetworkError, ServerError } from '../api/index.ts';
import { noAnswerWords } from '../api/network-errors.ts';
import type { Db } from '../db/open.ts';

// A service that stops answering mid-batch (the network dropped, the service is down or failing) once showed
// only "waiting on the service for 5 min", as a slow day does: nothing said that no request was answered.
// Every request of a key goes through its budget's slot, so the slot sees each answer or its absence; what
// it saw is kept per key (beside the key's SendLog, and in the database for the processes that only look),
// and a running batch of the key says it instead of its time left.

/**
 * Failures in a row said only after this long, so that one dropped connection or one 503 among answers is
 * not news. GUESS: 10 s, a few polls' worth and well under the stall a batch is said to have; in the
 * service's time, as the stall is (a fast sandbox's a hundredth of it).
 */
export const SAY_TROUBLE_AFTER_MS = 10_000;

/** How a request failed, as the service's trouble; null when the service answered (even "no"). */
export function troubleOf(error: unknown): Omit<ServiceTrouble, 'since'> | null {
  if (error instanceof NetworkError) return { kind: 'no_answer', reason: noAnswerWords(error) };
  if (error instanceof ServerError)
    return { kind: 'errors', reason: error.status === null ? 'an error' : `HTTP ${error.status}` };
  if (error instanceof MalformedResponseError)
    return { kind: 'errors', reason: 'answers that cannot be read' };
  return null;
}

/**
 * The requests of one key lately, as its slots saw them: since when every one failed (no answer, or a 5xx
 * or garbage), until one is answered. Kept in memory and, when it changes, in `service_trouble` (migration
 * 024) for the processes that only look; a write that fails there (a full disk) costs only those.
 */
export class ServiceHealth {
  private current: ServiceTrouble | null = null;

  constructor(
    private readonly db: Db,
    private readonly keyId: string,
  ) {}

  /** An answer came: the trouble is over, and its row goes, whoever wrote it (another process's look too). */
  answered(): void {
    this.current = null;
    this.store(() => {
      const row = this.db.prepare('SELECT 1 FROM service_trouble WHERE key_id = ?').get(this.keyId);
      if (row) this.db.prepare('DELETE FROM service_trouble WHERE key_id = ?').run(this.keyId);
    });
  }

  /** A request that left at `sentAt` failed so. The run of failures began with the first of them. */
  failed(sentAt: number, trouble: Omit<ServiceTrouble, 'since'>): void {
    const next = { ...trouble, since: Math.min(this.current?.since ?? sentAt, sentAt) };
    const same =
      this.current?.since === next.since &&
      this.current.kind === next.kind &&
      this.current.reason === next.reason;
    this.current = next;
    this.store(() => {
      // Written again when another process's answer took the row away (a balance asked by one that only
      // looks): it was once left gone, so `adbatch status` said nothing while the app still said it.
      if (same && this.db.prepare('SELECT 1 FROM service_trouble WHERE key_id = ?').get(this.keyId)) return;
      this.db
        .prepare('INSERT OR REPLACE INTO service_trouble (key_id, since, kind, reason) VALUES (?, ?, ?, ?)')
        .run(this.keyId, next.since, next.kind, next.reason);
    });
  }

  private store(write: () => void): void {
    try {
      write();
    } catch {
      // What this process says is in memory; the row only informs the others (see above).
    }
  }
}

/**
 * What a key's service has answered lately, as the process driving its requests wrote it: the trouble worth
 * saying at `now` (failing for SAY_TROUBLE_AFTER_MS, times the service's time scale, and more), else null.
 */
export function serviceTroubleOf(db: Db, keyId: string, now: number, timeScale = 1): ServiceTrouble | null {
  const row = db
    .prepare<[string], ServiceTrouble>('SELECT since, kind, reason FROM service_trouble WHERE key_id = ?')
    .get(keyId);
  return row && now - row.since >= SAY_TROUBLE_AFTER_MS * timeScale ? row : null;
}

/**
 * Forgets what an earlier driver of the queue saw: the one taking it over asks afresh. A data folder that
 * cannot be written now is said by what must be written (the queue's own writes), not by this.
 */
export function forgetServiceTrouble(db: Db): void {
  try {
    db.prepare('DELETE FROM service_trouble').run();
  } catch {
    // Only informs: see ServiceHealth.
  }
}
