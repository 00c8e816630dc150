import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKeyTransport } from '../../../src-main/core/app/public-api.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import { type CoreHarness, callCore, refusalOf, startCoreHarness } from '../../support/core-harness.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { memorySecretBox } from '../../support/secret-box.ts';

// Issue 28, point 6: a key is never sent over plain http to another machine unless the caller says so, and
// then with a warning naming the risk. Loopback stays plain http (the sandbox, a service on this machine).

let h: CoreHarness;
let service: Sandbox;

beforeAll(async () => {
  h = await startCoreHarness({ secrets: memorySecretBox() });
  // Bound to every address, so that it can also be reached by this machine's network address.
  service = await startSandbox({ host: '0.0.0.0', port: 0, timeScale: 0.02 });
});
afterAll(async () => {
  await h?.close();
  await service?.close();
});

const call = <C extends Channel>(channel: C, args: ArgsOf<C>) => callCore(h.core, channel, args);
const failure = (channel: string, args: unknown) => refusalOf(h.core, channel, args);
const apiKey = () => defaultKeys(service).personal;

describe('checkKeyTransport', () => {
  const allowed = (insecureHttp: boolean) => ({ insecureHttp, override: '--insecure-http' });

  it('lets https anywhere and plain http to loopback pass in silence', () => {
    for (const url of [
      'https://api.example.com',
      'http://127.0.0.1:8080',
      'http://127.9.9.9',
      'http://localhost:3000/v1',
      'http://[::1]:9',
    ]) {
      expect(checkKeyTransport(url, allowed(false)), url).toBeNull();
    }
  });

  it('refuses plain http elsewhere with the risk in words, or warns when told to send anyway', () => {
    for (const url of [
      'http://api.example.com',
      'http://192.168.1.10:8080',
      'http://127.0.0.1.evil.example',
    ]) {
      expect(() => checkKeyTransport(url, allowed(false)), url).toThrow(
        /plain http to another machine: the key would cross the network unencrypted.*--insecure-http/,
      );
      expect(checkKeyTransport(url, allowed(true)), url).toMatch(
        /^Warning: .* the key would cross the network unencrypted.*\(allowed by --insecure-http\)\.$/,
      );
    }
  });
});

describe('accounts:add', () => {
  it('refuses a plain http address to another machine before sending the key', async () => {
    const before = service.requests().length;
    expect(
      await failure('accounts:add', { name: 'Clear', baseUrl: 'http://192.0.2.77:8080', apiKey: apiKey() }),
    ).toEqual({
      code: 'refused',
      message:
        'http://192.0.2.77:8080 is plain http to another machine: the key would cross the network unencrypted, readable by anyone on the way. Use its https:// address, or insecureHttp: true to accept the risk.',
    });
    expect(service.requests().length).toBe(before);
  });

  it('with insecureHttp, goes on to the service (here unreachable: the address is checked, not the key)', async () => {
    const refusal = await failure('accounts:add', {
      name: 'Clear',
      baseUrl: 'http://adbatch-test.invalid:1',
      apiKey: apiKey(),
      insecureHttp: true,
    });
    expect(refusal).toMatchObject({ code: 'unreachable' });
  });

  it('with insecureHttp, adds the key at a network address and returns the warning', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;
    if (!external) return; // a machine with loopback only: no network address to add the key at
    const added = await call('accounts:add', {
      name: 'On the LAN',
      baseUrl: `http://${external}:${service.port}`,
      apiKey: apiKey(),
      insecureHttp: true,
    });
    expect(added).toMatchObject({ name: 'On the LAN', balance: 500 });
    expect(added.warning).toMatch(/the key would cross the network unencrypted/);
    expect(h.logs.join('\n')).toMatch(/On the LAN: Warning: .*unencrypted/);
  });

  it('adds a key at a loopback http address as before, with no warning', async () => {
    const added = await call('accounts:add', {
      name: 'Local',
      baseUrl: service.url,
      apiKey: defaultKeys(service).agency,
    });
    expect(added.name).toBe('Local');
    expect(added.warning).toBeUndefined();
  });
});
