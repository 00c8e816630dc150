import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RateLimit } from '../src-main/core/scheduler/budget.ts';
import { generateApiKey } from '../src-main/sandbox/accounts.ts';
import type { JobSummary, RequestLogEntry } from '../src-main/sandbox/server.ts';

/** The sandbox as the service would be: another process (its own event loop), reached over HTTP. */
export interface RemoteSandbox {
  url: string;
  requests(): Promise<RequestLogEntry[]>;
  jobs(): Promise<JobSummary[]>;
  close(): Promise<void>;
}

/** Starts `adbatch sandbox` at a time scale and rate limit, with one key of a rich account; `extra`: more options. */
export async function startBenchSandbox(
  dir: string,
  timeScale: number,
  rate: RateLimit,
  extra: string[] = [],
): Promise<{ sandbox: RemoteSandbox; apiKey: string }> {
  const apiKey = generateApiKey();
  const accounts = join(dir, `accounts-${apiKey.slice(-6)}.json`);
  await writeFile(
    accounts,
    JSON.stringify({
      accounts: [{ name: 'Bench', type: 'personal', credits: 1_000_000, keys: [{ key: apiKey }] }],
    }),
  );
  const args = ['sandbox', '--accounts', accounts, '--time-scale', String(timeScale)];
  args.push(
    '--rate-limit',
    `${rate.limit}/${rate.windowMs / 1000}s`,
    '--video-renderer',
    'bundled',
    ...extra,
  );
  const child = spawn(process.execPath, ['bin/adbatch.mjs', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  const url = firstLine.replace('Sandbox listening on ', '');
  const control = async <T>(path: string): Promise<T> =>
    ((await (await fetch(`${url}${path}`)).json()) as { data: T }).data;
  return {
    apiKey,
    sandbox: {
      url,
      requests: () => control<RequestLogEntry[]>('/_sandbox/requests'),
      jobs: () => control<JobSummary[]>('/_sandbox/jobs'),
      close: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    },
  };
}
