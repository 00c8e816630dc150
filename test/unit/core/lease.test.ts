import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeHolder,
  LeaseHeldError,
  readLeaseHolder,
  tryAcquireLease,
} from '../../../src-main/core/lease.ts';

// Guarantee 7: one owner per queue. The lease is an OS lock: a second taker is refused while the first
// lives, in this process or another, and the lock is gone the instant its holder is killed.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-lease-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LEASE = resolve(__dirname, '../../../src-main/core/lease.ts');

/** A process that takes the lease, says so, and holds it until killed. */
function holder(dataDir: string): Promise<ChildProcess> {
  const script = `import('${LEASE}').then((m) => {
    const attempt = m.tryAcquireLease(${JSON.stringify(dataDir)}, 'adbatch run');
    console.log(attempt.ok ? 'held' : 'refused');
    setInterval(() => {}, 1000);
  });`;
  // Node itself with tsx's loader (not the tsx command, which runs the script in a child of its own), so
  // the pid killed is the pid holding the lock.
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePromise, reject) => {
    child.stdout!.once('data', (chunk) =>
      String(chunk).startsWith('held') ? resolvePromise(child) : reject(new Error(String(chunk))),
    );
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
}

describe('the data folder lease', () => {
  it('refuses a second taker in the same process, names the holder, and is free once released', () => {
    const first = tryAcquireLease(dir, 'Adbatch');
    expect(first.ok).toBe(true);
    const second = tryAcquireLease(dir, 'adbatch resume');
    expect(second).toMatchObject({ ok: false, holder: { name: 'Adbatch', pid: process.pid } });
    expect(describeHolder(readLeaseHolder(dir))).toBe(`Adbatch (pid ${process.pid})`);
    if (first.ok) first.lease.release();
    const third = tryAcquireLease(dir, 'adbatch resume');
    expect(third.ok).toBe(true);
    if (third.ok) {
      expect(readLeaseHolder(dir)?.name).toBe('adbatch resume');
      third.lease.release();
    }
  });

  it('does not name a holder that is gone: the file left by a killed process, not yet overwritten', () => {
    const first = tryAcquireLease(dir, 'adbatch resume');
    expect(first.ok).toBe(true);
    // As between the new holder's lock and its write: the file still names the killed `adbatch run`.
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(
      join(dir, 'owner.json'),
      JSON.stringify({ name: 'adbatch run', pid: gone, host: hostname() }),
    );
    const refused = tryAcquireLease(dir, 'adbatch resume');
    expect(refused).toEqual({ ok: false, holder: null });
    expect(new LeaseHeldError(null, dir).message).toMatch(/^Another Adbatch process is running the batches/);
    if (first.ok) first.lease.release();
  });

  it('refuses while another process holds it, and is free the moment that process is killed (kill -9)', async () => {
    const child = await holder(dir);
    try {
      const refused = tryAcquireLease(dir, 'Adbatch');
      expect(refused).toMatchObject({ ok: false, holder: { name: 'adbatch run', pid: child.pid } });
      const error = new LeaseHeldError(refused.ok ? null : refused.holder, dir);
      expect(error.message).toBe(
        `adbatch run (pid ${child.pid}) is running the batches in ${dir}: quit it or wait for it to finish.`,
      );
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    }
    // No heartbeat to go stale, no cleanup: the OS dropped the lock with the process.
    const taken = tryAcquireLease(dir, 'Adbatch');
    expect(taken.ok).toBe(true);
    if (taken.ok) taken.lease.release();
  });

  it('says "another Adbatch process" when the holder left no readable note', () => {
    expect(describeHolder(null)).toBe('Another Adbatch process');
  });
});
