/** Exit statuses of `adbatch run` and `adbatch resume` (and, for a damaged database, of every command), so scripts can tell outcomes apart. */
export const EXIT = {
  /** Every job finished and every result is on disk. */
  ok: 0,
  /** Nothing started: bad input, a refused confirmation or budget, no key. */
  error: 1,
  /**
   * The batch ended, but some jobs failed, were skipped, or need a decision (outcome unknown, stale), or the
   * batch is a restored backup's, paused until a person resumes it (`adbatch resume --yes`).
   */
  partial: 2,
  /** Stopped because the credits ran out; `adbatch resume` continues once there are more. */
  stoppedOnCredits: 3,
  /**
   * Nothing succeeded, the service refused the key, the photos could not be uploaded, or an address the
   * service would fetch (a photo, the model image, the logo) did not answer (paused before any POST).
   */
  failed: 4,
  /** Another process (the app, another `adbatch run`) drives this data folder's queue: nothing was done. */
  busy: 5,
  /**
   * Paused by a fault on this computer (the library's or the data folder's disk full, a folder not writable
   * or gone): what was paid for is still owed; mend it, then `adbatch resume` goes on without paying again.
   */
  pausedLocally: 6,
  /**
   * Stopped before passing a cap: the brand's monthly budget or the batch's own (--budget). Raise it
   * (`adbatch brands cap`), then `adbatch resume` goes on.
   */
  stoppedAtCap: 7,
  /**
   * The queue's database is damaged (SQLite's quick_check, or SQLITE_CORRUPT met on the way): nothing was
   * changed or sent; the message says where the last automatic backup is and how to put it back.
   */
  damagedDatabase: 8,
  /** Interrupted (Ctrl+C); `adbatch resume` continues where it stopped. */
  interrupted: 130,
} as const;
