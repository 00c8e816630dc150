import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

// A child process of this Node for the tests that kill and restart what they drive (the CLI, the core, the
// sandbox): its output collected, its exit awaited, and a wait for a line it prints that fails fast when
// it exits first, with no patience of its own: a child starts slowly on a loaded machine, and only the
// test's timeout bounds the wait.

const ROOT = resolve(__dirname, '../..');

export interface Child {
  process: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** The first match of `pattern` in the output, as soon as it is printed; throws if the child exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
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
    waitFor(pattern) {
      return new Promise((resolvePromise, reject) => {
        const look = () => {
          const match = pattern.exec(text);
          if (match) {
            stop();
            resolvePromise(match);
          } else if (ended) {
            stop();
            reject(new Error(`exited before ${pattern}:\n${text}`));
          }
        };
        const stop = () => {
          child.stdout!.off('data', look);
          child.stderr!.off('data', look);
          child.off('exit', look);
        };
        // After `collect`, which was added first: the text looked at holds the chunk that woke the look.
        child.stdout!.on('data', look);
        child.stderr!.on('data', look);
        child.on('exit', look);
        look();
      });
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
