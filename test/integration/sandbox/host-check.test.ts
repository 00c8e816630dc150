import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src-main/sandbox/server.ts';
import { requestWithHost } from '../../support/forged-host.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// Issue 28, point 5: the sandbox answers only requests that name its own address. A web page the user visits
// can reach 127.0.0.1 under its own name by DNS rebinding; the tokenless control endpoints would hand it
// every key, and the API would spend them.

let h: DefaultHarness;

beforeAll(async () => {
  h = await startDefaultHarness({ timeScale: 1 });
});
afterAll(() => h.close());

const port = () => new URL(h.sandbox.url).port;

describe('the sandbox checks the Host header', () => {
  it('refuses a rebound host on the control endpoints without the keys in the answer', async () => {
    const answer = await requestWithHost(h.sandbox.url, '/_sandbox/accounts', 'rebound.evil.example');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('answers only at its own address');
    expect(answer.body).not.toContain(h.keys.personal);
    const withPort = await requestWithHost(
      h.sandbox.url,
      '/_sandbox/accounts',
      `rebound.evil.example:${port()}`,
    );
    expect(withPort.status).toBe(403);
    expect(withPort.body).not.toContain(h.keys.personal);
  });

  it('refuses a rebound host on the API, even with a good key', async () => {
    const answer = await requestWithHost(h.sandbox.url, '/v1/credits', `rebound.evil.example:${port()}`, {
      headers: { 'x-api-key': h.keys.personal },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('credits":');
  });

  it('answers its own loopback names at its port', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LOCALHOST:${port()}`]) {
      const answer = await requestWithHost(h.sandbox.url, '/_sandbox/accounts', host);
      expect(answer.status, host).toBe(200);
      expect(answer.body, host).toContain(h.keys.personal);
    }
    const api = await requestWithHost(h.sandbox.url, '/v1/credits', `127.0.0.1:${port()}`, {
      headers: { 'x-api-key': h.keys.personal },
    });
    expect(api.status).toBe(200);
    // The right name at another port is another server.
    const otherPort = await requestWithHost(
      h.sandbox.url,
      '/_sandbox/accounts',
      `127.0.0.1:${Number(port()) + 1}`,
    );
    expect(otherPort.status).toBe(403);
  });

  it('bound to an address of its own choosing, answers at that address and at loopback', async () => {
    const sandbox = await startSandbox({ host: '::1' });
    try {
      const own = new URL(sandbox.url);
      expect(own.hostname).toBe('[::1]');
      expect((await requestWithHost(sandbox.url, '/_sandbox/jobs', own.host)).status).toBe(200);
      expect(
        (await requestWithHost(sandbox.url, '/_sandbox/jobs', `rebound.evil.example:${own.port}`)).status,
      ).toBe(403);
    } finally {
      await sandbox.close();
    }
  });
});
