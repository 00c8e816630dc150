import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreditsBody, ErrorBody } from '../../support/sandbox-client.ts';
import { type DefaultHarness, newKey, startDefaultHarness } from '../../support/sandbox-harness.ts';

// Authentication: "Send the key in either header. Both are equivalent." A missing, invalid or revoked key
// gives 401 `unauthorized`; /v1/health is the only endpoint without a key.

let h: DefaultHarness;

beforeAll(async () => {
  h = await startDefaultHarness();
});
afterAll(() => h.close());
beforeEach(() => h.client.reset());

const KEYED_ENDPOINTS: Array<[method: string, path: string]> = [
  ['POST', '/v1/shoots'],
  ['GET', '/v1/shoots/shoot_0123'],
  ['POST', '/v1/videos'],
  ['GET', '/v1/videos/video_0123'],
  ['GET', '/v1/credits'],
  ['GET', '/v1/usage'],
  ['GET', '/v1/brands'],
  ['POST', '/v1/brands'],
  ['GET', '/v1/models'],
];

function expectUnauthorized(response: { status: number; body: ErrorBody }) {
  expect(response.status).toBe(401);
  expect(response.body.error.code).toBe('unauthorized');
  expect(response.body.error.message).toEqual(expect.any(String));
  expect(response.body.error.message.length).toBeGreaterThan(0);
}

describe('auth', () => {
  it('GET /v1/health needs no key', async () => {
    const response = await h.client.call<{ status: string; version: string; sandbox: boolean; time: string }>(
      'GET',
      '/v1/health',
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', version: '1.0.0', sandbox: true });
    expect(Number.isNaN(Date.parse(response.body.time))).toBe(false);
  });

  it('accepts the key as Authorization: Bearer', async () => {
    const response = await h.client.call<CreditsBody>('GET', '/v1/credits', {
      key: h.keys.personal,
      header: 'bearer',
    });
    expect(response.status).toBe(200);
    expect(response.body.credits).toBe(500);
  });

  it('accepts the key as x-api-key', async () => {
    const response = await h.client.call<CreditsBody>('GET', '/v1/credits', {
      key: h.keys.agency,
      header: 'x-api-key',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ credits: 1000, balance: 'pool' });
  });

  it('lets x-api-key win when both headers carry different keys', async () => {
    const response = await h.client.call<CreditsBody>('GET', '/v1/credits', {
      key: h.keys.agency,
      header: 'x-api-key',
      headers: { authorization: `Bearer ${h.keys.personal}` },
    });
    expect(response.status).toBe(200);
    expect(response.body.balance).toBe('pool');
  });

  it.each(KEYED_ENDPOINTS)('%s %s without a key is 401 unauthorized', async (method, path) => {
    expectUnauthorized(await h.client.call(method, path, method === 'POST' ? { body: {} } : {}));
  });

  it.each(KEYED_ENDPOINTS)(
    '%s %s with an unknown well-formed key is 401 unauthorized',
    async (method, path) => {
      expectUnauthorized(
        await h.client.call(method, path, { key: newKey(), ...(method === 'POST' ? { body: {} } : {}) }),
      );
    },
  );

  it.each([
    ['a short hex tail', 'adsk_0123abcd'],
    ['no prefix', 'a'.repeat(64)],
    ['a non-hex tail', `adsk_${'z'.repeat(64)}`],
    ['65 hex characters', `adsk_${'a'.repeat(65)}`],
  ])('a malformed key (%s) is 401 unauthorized in either header', async (_label, key) => {
    expectUnauthorized(await h.client.call('GET', '/v1/credits', { key, header: 'bearer' }));
    expectUnauthorized(await h.client.call('GET', '/v1/credits', { key, header: 'x-api-key' }));
  });

  it('an Authorization header of another scheme is 401 unauthorized', async () => {
    expectUnauthorized(
      await h.client.call('GET', '/v1/credits', { headers: { authorization: `Basic ${h.keys.personal}` } }),
    );
  });

  it('an empty x-api-key is 401 unauthorized', async () => {
    expectUnauthorized(await h.client.call('GET', '/v1/credits', { headers: { 'x-api-key': '' } }));
  });

  it('a refused create charges nothing', async () => {
    const unauthorised = await h.client.call('POST', '/v1/shoots', {
      key: newKey(),
      body: { product_image_urls: [h.photo()], style: 'classic', shots: 1 },
    });
    expectUnauthorized(unauthorised);
    expect(await h.client.credits(h.keys.personal)).toBe(500);
    expect(await h.client.credits(h.keys.agency)).toBe(1000);
  });
});
