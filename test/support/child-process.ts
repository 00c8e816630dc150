import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// A child process of this Node for the tests that kill and restart what they drive (the CLI, the core, the
// sandbox): its output collected, its exit awaited, and a wait for a line it prints that fails fast when
// it exits first.

const ROOT = resolve(__dirname, '../..');

export interface Child {
  process: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** The first match of `pattern` in the output; throws if the child exits or time runs out first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** kill -9, and the exit awaited. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** `node <args>` from the repository's root. */
export function startChild(args: string[], env: NodeJS.ProcessEnv = process.env): Child {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let text = '';
  let ended = false;
  const collect = (chunk: Buffer) => {
    text += chunk;
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      ended = true;
      running.delete(child);
      done(code);
    }),
  );
  return {
    process: child,
    exited,
    output: () => text,
    async waitFor(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(text);
        if (match) return match;
        if (ended || Date.now() > deadline) {
          throw new Error(`${ended ? 'exited' : 'timed out'} before ${pattern}:\n${text}`);
        }
        await sleep(20);
      }
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Kills whatever a test left running (an afterAll after a failure). */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Waits until `predicate` holds (something another process does, seen from here). */
export async function until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
