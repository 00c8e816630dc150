import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateApiKey } from './accounts.ts';
import type { RateLimit } from './rate-limiter.ts';
import type { Sandbox } from './server.ts';

// The Sandbox account of the CLI (`--sandbox`) and the app: the sandbox runs inside this process, its state kept in the data dir so that a
// batch can be resumed after a crash. It listens on the same port as last time when it can, so the result
// URLs recorded before a crash still point at it.

/** The Sandbox account: a simulated personal account, generous enough for a few demos. */
const SANDBOX_CREDITS = 5000;
/** Ten times faster than real time: a demo batch with videos takes about a minute. */
export const DEFAULT_SANDBOX_TIME_SCALE = 0.1;

export interface EmbeddedSandbox {
  sandbox: Sandbox;
  url: string;
  apiKey: string;
}

async function readPort(file: string): Promise<number> {
  try {
    return Number((await readFile(file, 'utf8')).trim()) || 0;
  } catch {
    return 0;
  }
}

export interface EmbeddedSandboxOptions {
  /** Its state lives in `<dataDir>/sandbox`. */
  dataDir: string;
  timeScale: number;
  /** Where render and input failures are reported (stderr by default). */
  onError?: (message: string, error: unknown) => void;
  /** The service's limit (60 per 60 s) unless a test compresses time and wants the window compressed too. */
  rateLimit?: RateLimit;
}

export async function startEmbeddedSandbox({
  dataDir,
  timeScale,
  onError = (message, error) => process.stderr.write(`sandbox: ${message}: ${(error as Error).message}\n`),
  rateLimit,
}: EmbeddedSandboxOptions): Promise<EmbeddedSandbox> {
  const dir = join(dataDir, 'sandbox');
  await mkdir(dir, { recursive: true });
  const portFile = join(dir, 'port');
  const options = {
    timeScale,
    stateFile: join(dir, 'state.json'),
    accounts: {
      accounts: [
        {
          name: 'Sandbox',
          type: 'personal' as const,
          credits: SANDBOX_CREDITS,
          keys: [{ key: generateApiKey() }],
        },
      ],
    },
    onError,
    ...(rateLimit ? { rateLimit } : {}),
  };
  const previous = await readPort(portFile);
  // The server (its renderers, sharp) is imported when a sandbox starts: the CLI's commands import this
  // module for DEFAULT_SANDBOX_TIME_SCALE, and most of them never start one.
  const { startSandbox } = await import('./server.ts');
  const sandbox = await startSandbox({ ...options, port: previous }).catch(() =>
    startSandbox({ ...options, port: 0 }),
  );
  await writeFile(portFile, String(sandbox.port));
  const apiKey = sandbox.accounts()[0]?.keys[0]?.key;
  if (!apiKey) throw new Error(`the sandbox state in ${dir} has no account with a key`);
  return { sandbox, url: sandbox.url, apiKey };
}
