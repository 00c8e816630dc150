import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { asDataFolderError } from './db/data-folder-fault.ts';
import { readStored, storedLeaseHolder } from './db/stored.ts';
import { makeFoldersSync } from './util/make-folders.ts';
import { processAlive } from './util/process-alive.ts';

// One data folder has one owner: whatever drives its queue (the app, `adbatch run`/`resume`, the browser
// harness) first takes this lease. Two engines on one queue once downloaded the same files and marked paid
// results failed, so the second one must never start.
//
// The lease is an exclusive SQLite lock on `owner.lock`, held for the life of the connection
// (`locking_mode = EXCLUSIVE`): SQLite takes it with fcntl on POSIX and LockFileEx on Windows, and the OS
// drops both the moment the process dies, so a crash (kill -9, a power cut) never leaves the folder locked.
// No heartbeat, no stale-lock guessing. SQLite also tracks its locks per file within one process, so two
// cores in one process (tests) are refused like two processes are.
//
// Who holds it is written beside it in `owner.json`, for messages only: the lock decides, the file informs
// (a holder that died leaves its file behind, and the next holder overwrites it). A refused process may read
// the file in the instant between the new holder's lock and its write, so a file naming a process of this
// computer that is gone is read again for a moment, then not believed.

const LOCK_FILE = 'owner.lock';
const OWNER_FILE = 'owner.json';

export interface LeaseHolder {
  /** What holds the queue, in words: "Adbatch", "adbatch run", "adbatch resume". */
  name: string;
  pid: number;
  host: string;
  since: number;
}

export interface Lease {
  readonly holder: LeaseHolder;
  /** Lets another process take the queue; idempotent. */
  release(): void;
}

export type LeaseAttempt = { ok: true; lease: Lease } | { ok: false; holder: LeaseHolder | null };

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Who holds the data folder's queue, as they wrote it; null when the file is missing or unreadable. */
export function readLeaseHolder(dataDir: string): LeaseHolder | null {
  const file = join(dataDir, OWNER_FILE);
  try {
    return readStored(storedLeaseHolder, readFileSync(file, 'utf8'), file);
  } catch {
    return null;
  }
}

const STALE_HOLDER_RETRIES = 20;
const STALE_HOLDER_WAIT_MS = 25;

/**
 * Who drives the queue now, as far as a look can tell without taking the lock (which would refuse a driver
 * starting at that instant): the holder the file names while that process lives (one on another computer is
 * believed); null when none does. GUESS: a pid reused by another process since is taken for the holder.
 */
export function runningHolder(dataDir: string): LeaseHolder | null {
  const holder = readLeaseHolder(dataDir);
  return holder && (holder.host !== hostname() || processAlive(holder.pid)) ? holder : null;
}

/** The holder named by the file, once it names a live process (or one on another computer); else null. */
function currentHolder(dataDir: string): LeaseHolder | null {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < STALE_HOLDER_RETRIES; attempt++) {
    const holder = runningHolder(dataDir);
    if (holder) return holder;
    Atomics.wait(pause, 0, 0, STALE_HOLDER_WAIT_MS);
  }
  return null;
}

/**
 * Takes the data folder's lease if nobody holds it; never waits for it (at most half a second for who). A
 * data folder that cannot be written is a DataFolderError, in words.
 */
export function tryAcquireLease(dataDir: string, name: string, now: () => number = Date.now): LeaseAttempt {
  try {
    return acquire(dataDir, name, now);
  } catch (error) {
    throw asDataFolderError(error, dataDir);
  }
}

function acquire(dataDir: string, name: string, now: () => number): LeaseAttempt {
  makeFoldersSync(dataDir);
  const db = new Database(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in EXCLUSIVE mode it is kept after the commit.
    db.exec('CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), taken_at INTEGER)');
    db.prepare('INSERT OR REPLACE INTO lease (id, taken_at) VALUES (1, ?)').run(now());
  } catch (error) {
    db.close();
    if (isBusy(error)) return { ok: false, holder: currentHolder(dataDir) };
    throw error;
  }
  const holder: LeaseHolder = { name, pid: process.pid, host: hostname(), since: now() };
  const file = join(dataDir, OWNER_FILE);
  try {
    writeFileSync(`${file}.part`, `${JSON.stringify(holder, null, 2)}\n`);
    renameSync(`${file}.part`, file);
  } catch (error) {
    db.close();
    rmSync(`${file}.part`, { force: true });
    throw error;
  }
  let held = true;
  return {
    ok: true,
    lease: {
      holder,
      release() {
        if (!held) return;
        held = false;
        db.close();
      },
    },
  };
}

/** "Adbatch (pid 4321) is running these batches": the holder in words, for a refusal. */
export function describeHolder(holder: LeaseHolder | null): string {
  if (!holder) return 'Another Adbatch process';
  const where = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : '';
  return `${holder.name} (pid ${holder.pid}${where})`;
}

/** Refusal of a second driver: says who holds the queue and what to do. */
export class LeaseHeldError extends Error {
  constructor(
    readonly holder: LeaseHolder | null,
    readonly dataDir: string,
  ) {
    super(
      `${describeHolder(holder)} is running the batches in ${dataDir}: quit it or wait for it to finish.`,
    );
  }
}
