/** Exit statuses of `adbatch run` and `adbatch resume` (and, for a damaged database, of every command), so scripts can tell outcomes apart. */
export const EXIT = {
  /** Every job finished and every result is on disk. */
  ok: 0,
  /** Nothing started: bad input, a refused confirmation or budget, no key. */
  error: 1,
  /**
   * The batch ended, but some jobs failed or were skipped, or the batch is a restored backup's, paused until a
   * person resumes it (`adbatch resume --yes`).
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
  /**
   * The batch needs you: credits are in doubt (a create whose answer was lost, a job past its deadline, results
   * paid for and not on disk). Nothing more is sent by itself; `adbatch recheck <batch>` checks all again, free.
   */
  needsYou: 9,
  /** Interrupted (Ctrl+C); `adbatch resume` continues where it stopped. */
  interrupted: 130,
} as const;

/** The exit statuses in a line each, for `adbatch --help`; the comments above say the same at length. */
export const EXIT_HELP = `Exit status (run, resume, recheck, redownload, reshoot, videos):
  ${EXIT.ok}    every job finished, every result on disk
  ${EXIT.error}    nothing started (bad input, a refused confirmation or budget, no key)
  ${EXIT.partial}    some jobs failed or were skipped, or a restored batch waits for resume --yes
  ${EXIT.stoppedOnCredits}    stopped: the credits ran out (resume continues)
  ${EXIT.failed}    nothing succeeded, the key was refused, or the photos could not be uploaded
  ${EXIT.busy}    another process drives this data folder's queue: nothing was done
  ${EXIT.pausedLocally}    paused by a fault on this computer (disk full, folder gone): mend it, then resume
  ${EXIT.stoppedAtCap}    stopped before passing a cap (raise it with brands cap, then resume)
  ${EXIT.damagedDatabase}    the database is damaged (every command): nothing was changed or sent
  ${EXIT.needsYou}    needs you: credits in doubt; adbatch recheck <batch> checks all again, free
  ${EXIT.interrupted}  interrupted (Ctrl+C): resume continues`;
