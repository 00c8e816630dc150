import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

// The `adbatch` command as a user runs it: a child process of the same Node (or the one named), its output
// collected; `collected` does the same for any other command.

export const ADBATCH_BIN = resolve(__dirname, '../../bin/adbatch.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function adbatch(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; node?: string } = {},
): Promise<CliResult> {
  return collected(options.node ?? process.execPath, [ADBATCH_BIN, ...args], options);
}

/** Any command run to its exit, its output collected (the launcher's own entry points, npm). */
export function collected(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    env: options.env ?? process.env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolvePromise) =>
    child.once('exit', (code) => resolvePromise({ code, stdout, stderr })),
  );
}

/** `adbatch run` of one Classic shot per product, confirmed, against the service these flags name. */
function runArgs(
  inputs: string[],
  service: string[],
  where: { dataDir: string; library: string },
  extra: string[],
): string[] {
  return [
    'run',
    ...inputs,
    ...service,
    '--style',
    'classic',
    '--shots',
    '1',
    '--yes',
    '--data-dir',
    where.dataDir,
    '--library',
    where.library,
    ...extra,
  ];
}

/** The arguments of `adbatch run` on the embedded sandbox, sped up. */
export function sandboxRunArgs(
  inputs: string[],
  where: { dataDir: string; library: string },
  extra: string[] = [],
): string[] {
  return runArgs(inputs, ['--sandbox', '--time-scale', '0.02'], where, extra);
}

/** The arguments of `adbatch run` against a service at `baseUrl` (its key goes in ADBATCH_API_KEY). */
export function serviceRunArgs(
  inputs: string[],
  baseUrl: string,
  where: { dataDir: string; library: string },
  extra: string[] = [],
): string[] {
  return runArgs(inputs, ['--base-url', baseUrl], where, extra);
}

/** `adbatch run` on the embedded sandbox (sandboxRunArgs), to its end. */
export function runOnSandbox(
  inputs: string[],
  where: { dataDir: string; library: string },
  extra: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<CliResult> {
  return adbatch(sandboxRunArgs(inputs, where, extra), env ? { env } : {});
}
