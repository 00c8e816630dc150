import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// Guarantee 3 through the CLI: a run that starts with its key's whole budget free sends nothing beyond
// the limit, the balance checks of its quote and its start included. (Before the CLI was a front end of
// the core, its balance check went around the budget: a run at 60/6s sent 61 requests in its
// first 6 s and met a 429.)

const PRODUCTS = 80;
const WINDOW_MS = 6000;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-budget-run-'));
  sandbox = await startSandbox({ timeScale: 0.05, rateLimit: '60/6s', videoRenderer: 'bundled' });
  await makeProductFolders(join(dir, 'products'), PRODUCTS, 1);
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('adbatch run at full budget', () => {
  it('never sends more than the limit in any window, balance checks included, and meets no 429', async () => {
    const result = await adbatch(
      serviceRunArgs(
        [join(dir, 'products')],
        sandbox.url,
        { dataDir: join(dir, 'data'), library: join(dir, 'library') },
        ['--rate-limit', '60/6s'],
      ),
      { env: { ...process.env, ADBATCH_API_KEY: sandbox.accounts()[0]!.keys[0]!.key } },
    );
    expect(result.code, result.stderr).toBe(0);
    const log = sandbox.requests().filter((entry) => entry.path.startsWith('/v1/'));
    expect(log.filter((entry) => entry.path === '/v1/credits').length).toBeGreaterThanOrEqual(1);
    expect(log.filter((entry) => entry.method === 'POST')).toHaveLength(PRODUCTS);
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    // Every request of the key, as the sandbox saw it: never more than 60 in any 6 s.
    const times = log.map((entry) => Date.parse(entry.at));
    expect(times.length).toBeGreaterThan(60);
    for (let i = 60; i < times.length; i++)
      expect(times[i]! - times[i - 60]!).toBeGreaterThanOrEqual(WINDOW_MS - 5);
  }, 120_000);
});
