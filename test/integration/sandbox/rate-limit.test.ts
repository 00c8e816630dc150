import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallResult, ErrorBody } from '../../support/sandbox-client.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// "60 requests per minute per key. All keyed endpoints. Exceeding gives 429 rate_limited." The sandbox uses
// a sliding window, counts refused requests too (not /v1/health), and sends Retry-After (seconds).

function expectRateLimited(response: CallResult<ErrorBody>, maxRetryAfter: number) {
  expect(response.status).toBe(429);
  expect(response.body.error.code).toBe('rate_limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

describe('the default limit: 60 requests per 60 s per key', () => {
  let h: DefaultHarness;
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1 });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  it('accepts 60 requests and refuses the 61st with 429 rate_limited and Retry-After', async () => {
    for (let index = 1; index <= 60; index++) {
      const response = await h.client.call('GET', '/v1/credits', { key: h.keys.personal });
      expect(response.status, `request ${index}`).toBe(200);
    }
    expectRateLimited(await h.client.call('GET', '/v1/credits', { key: h.keys.personal }), 60);
    // Either header: it is the key that is limited.
    expectRateLimited(
      await h.client.call('GET', '/v1/credits', { key: h.keys.personal, header: 'x-api-key' }),
      60,
    );
  });

  it('counts per key: another key of the same agency still works', async () => {
    for (let index = 0; index < 60; index++)
      await h.client.call('GET', '/v1/credits', { key: h.keys.agency });
    expectRateLimited(await h.client.call('GET', '/v1/credits', { key: h.keys.agency }), 60);
    expect((await h.client.call('GET', '/v1/credits', { key: h.keys.agencyPinned })).status).toBe(200);
    expect((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status).toBe(200);
  });

  it('counts every keyed endpoint: creates, polls, credits, models, usage, brands', async () => {
    const { agency } = h.keys;
    const created = await h.client.createShoot(agency, {
      product_image_urls: [h.missingPhoto],
      style: 'classic',
      shots: 1,
    });
    expect(created.status).toBe(201);
    const calls: Array<[string, string]> = [
      ...Array.from({ length: 15 }, (): [string, string] => ['GET', `/v1/shoots/${created.body.id}`]),
      ...Array.from({ length: 15 }, (): [string, string] => ['GET', '/v1/credits']),
      ...Array.from({ length: 15 }, (): [string, string] => ['GET', '/v1/models']),
      ...Array.from({ length: 10 }, (): [string, string] => ['GET', '/v1/usage']),
      ...Array.from({ length: 4 }, (): [string, string] => ['GET', '/v1/brands']),
    ];
    expect(calls.length + 1).toBe(60);
    for (const [method, path] of calls)
      expect((await h.client.call(method, path, { key: agency })).status, path).toBe(200);

    expectRateLimited(await h.client.call('GET', `/v1/shoots/${created.body.id}`, { key: agency }), 60);
    const refusedCreate = await h.client.createShoot(agency, {
      product_image_urls: [h.missingPhoto],
      style: 'classic',
      shots: 1,
    });
    expectRateLimited(refusedCreate, 60);
    // The refused create charged nothing: only the first shoot's credit is gone.
    expect(await h.client.credits(h.keys.agencyPinned)).toBe(999);
  });

  it('does not count /v1/health, and health still answers while the key is limited', async () => {
    for (let index = 0; index < 80; index++)
      expect((await h.client.call('GET', '/v1/health')).status).toBe(200);
    for (let index = 0; index < 60; index++) {
      expect((await h.client.call('GET', '/v1/models', { key: h.keys.personal })).status).toBe(200);
    }
    expectRateLimited(await h.client.call('GET', '/v1/models', { key: h.keys.personal }), 60);
    expect((await h.client.call('GET', '/v1/health')).status).toBe(200);
  });

  it('POST /_sandbox/reset clears the windows', async () => {
    for (let index = 0; index < 60; index++)
      await h.client.call('GET', '/v1/credits', { key: h.keys.personal });
    expectRateLimited(await h.client.call('GET', '/v1/credits', { key: h.keys.personal }), 60);
    await h.client.reset();
    expect((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status).toBe(200);
  });
});

describe('a short window (rateLimit 5/1s)', () => {
  let h: DefaultHarness;
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: '5/1s' });
  });
  afterAll(() => h.close());

  it('refuses the 6th request; knocking on keeps it refused; a whole quiet window lets it in again', async () => {
    for (let index = 0; index < 5; index++) {
      expect((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status).toBe(200);
    }
    // Knock every 100 ms for longer than a window: refused requests count, so the window never frees.
    const knockingUntil = Date.now() + 1_400;
    while (Date.now() < knockingUntil) {
      expectRateLimited(await h.client.call('GET', '/v1/credits', { key: h.keys.personal }), 1);
      await sleep(100);
    }
    await sleep(1_100);
    expect((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status).toBe(200);
  });
});
