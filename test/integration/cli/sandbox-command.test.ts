import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = resolve(__dirname, '../../../bin/adbatch.mjs');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Runs `adbatch sandbox ...` and resolves with its stdout lines once the accounts are printed. */
function startCommand(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Press Ctrl+C')) resolvePromise({ child, lines });
    });
    child.once('exit', (code) => reject(new Error(`adbatch sandbox exited with ${code}: ${stderr}`)));
  });
}

describe('npx adbatch sandbox', () => {
  it('prints where it listens first, then the accounts and keys, serves /v1, and stops on SIGTERM', async () => {
    const { child, lines } = await startCommand(['--port', '0']);
    expect(lines[0]).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = lines[0]!.replace('Sandbox listening on ', '');
    const keys = lines.map((line) => /\b(adsk_[0-9a-f]{64})\b/.exec(line)?.[1]).filter(Boolean) as string[];
    expect(keys).toHaveLength(3);
    expect(lines.join('\n')).toMatch(/Personal \(personal, 500 credits\)/);
    expect(lines.join('\n')).toMatch(/Northwind Agency \(agency, partner plan, pool of 1000 credits\)/);
    expect(lines.join('\n')).toMatch(/pinned to Acme Outdoor/);

    const health = await fetch(`${url}/v1/health`);
    expect(health.status).toBe(200);
    const credits = await fetch(`${url}/v1/credits`, { headers: { authorization: `Bearer ${keys[0]}` } });
    expect(await credits.json()).toMatchObject({ credits: 500 });

    const exit = new Promise((resolvePromise) => child.once('exit', resolvePromise));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('takes accounts from a file and keeps its state across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adbatch-cli-'));
    try {
      const key = `studio_${'ab12'.repeat(16)}`;
      const accounts = join(dir, 'accounts.json');
      await writeFile(
        accounts,
        JSON.stringify({ accounts: [{ name: 'Jo', type: 'personal', credits: 42, keys: [{ key }] }] }),
      );
      const state = join(dir, 'state.json');
      const first = await startCommand(['--accounts', accounts, '--state', state, '--rate-limit', '5/1s']);
      const url = first.lines[0]!.replace('Sandbox listening on ', '');
      expect(first.lines.join('\n')).toContain(key);
      const brand = await fetch(`${url}/v1/brands`, { headers: { 'x-api-key': key } });
      expect(brand.status).toBe(403);
      const exited = new Promise((resolvePromise) => first.child.once('exit', resolvePromise));
      first.child.kill('SIGTERM');
      await exited;

      const second = await startCommand(['--state', state]);
      expect(second.lines.join('\n')).toContain(key);
      expect(second.lines.join('\n')).toMatch(/Jo \(personal, 42 credits\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad option with a clear message and a non-zero status', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--rate-limit', 'fast'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolvePromise) => child.once('exit', resolvePromise));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/not of the form N\/Ws/);
  });
});
