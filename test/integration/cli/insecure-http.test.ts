import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// Issue 28, point 6, as a user meets it: a plain http --base-url to another machine is refused before the
// key is sent, unless --insecure-http says to send it anyway, with a warning naming the risk.

let service: DefaultHarness;
let dir: string;
let where: { dataDir: string; library: string };

beforeAll(async () => {
  // Bound to every address, so that it can also be reached by this machine's network address.
  service = await startDefaultHarness({ host: '0.0.0.0', timeScale: 0.002 });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-insecure-http-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
});
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const withKey = (key: string) => ({ env: { ...process.env, ADBATCH_API_KEY: key } });
const RISK =
  /http:\/\/192\.0\.2\.77:8080 is plain http to another machine: the key would cross the network unencrypted/;

describe('--base-url over plain http', () => {
  it('is refused for another machine, with the risk and the way out in words, and nothing sent', async () => {
    const before = service.sandbox.requests().length;
    const run = await adbatch(
      serviceRunArgs([join(dir, 'no-products')], 'http://192.0.2.77:8080', where, [
        '--style',
        'classic',
        '--yes',
      ]),
      withKey(service.keys.personal),
    );
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toMatch(RISK);
    expect(run.stderr).toMatch(/Use its https:\/\/ address, or --insecure-http to accept the risk\./);
    const brands = await adbatch(
      ['brands', '--base-url', 'http://192.0.2.77:8080', '--data-dir', where.dataDir],
      withKey(service.keys.agency),
    );
    expect(brands.code).toBe(EXIT.error);
    expect(brands.stderr).toMatch(RISK);
    expect(service.sandbox.requests().length).toBe(before);
  });

  it('is accepted with --insecure-http, with a warning naming the risk', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;
    if (!external) return; // a machine with loopback only: no network address to reach the service by
    const listed = await adbatch(
      [
        'brands',
        '--base-url',
        `http://${external}:${service.sandbox.port}`,
        '--insecure-http',
        '--data-dir',
        where.dataDir,
      ],
      withKey(service.keys.agency),
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/Acme Outdoor/);
    expect(listed.stderr).toMatch(
      /^adbatch: Warning: http:\/\/[\d.]+:\d+ is plain http to another machine: the key would cross the network unencrypted/,
    );
  });

  it('is accepted in silence to this machine, as before', async () => {
    const listed = await adbatch(
      ['brands', '--base-url', service.sandbox.url, '--data-dir', where.dataDir],
      withKey(service.keys.agency),
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toBe('');
  });
});
