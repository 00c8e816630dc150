import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MalformedResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
  ServiceClient,
  ValidationError,
} from '../../../../src-main/core/api/index.ts';

// The client's own wiring, against undici's MockAgent: where requests go, what they carry, and how odd
// answers a real service could give (the sandbox never does) are read.

const KEY = `adsk_${'c0ffee42'.repeat(8)}`;
let agent: MockAgent;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});

afterEach(async () => {
  await agent.close();
});

function client(baseUrl = 'https://ads.example.com'): ServiceClient {
  return new ServiceClient({ baseUrl, apiKey: KEY, dispatcher: agent, userAgent: 'adbatch-test' });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('ServiceClient wiring', () => {
  it('keeps a base path prefix and tolerates a trailing /v1 or slash', async () => {
    for (const base of [
      'https://ads.example.com/api',
      'https://ads.example.com/api/',
      'https://ads.example.com/api/v1/',
    ]) {
      agent
        .get('https://ads.example.com')
        .intercept({ path: '/api/v1/credits', method: 'GET' })
        .reply(200, { credits: 3, balance: 'account', tenant: null });
      expect(await client(base).getCredits()).toEqual({ credits: 3, pool: false, tenant: null });
    }
    expect(client('https://ads.example.com/api/v1/').baseUrl).toBe('https://ads.example.com/api');
  });

  it('rejects a base address that is not http(s)', () => {
    expect(() => client('ftp://ads.example.com')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => client('not a url')).toThrow(/not a valid URL/);
  });

  it('sends the key as a bearer token, JSON bodies in snake_case, and no key to health', async () => {
    const pool = agent.get('https://ads.example.com');
    let seen: { headers: Record<string, string>; body: unknown } | null = null;
    pool.intercept({ path: '/v1/shoots', method: 'POST' }).reply((options) => {
      seen = { headers: options.headers as Record<string, string>, body: JSON.parse(String(options.body)) };
      return { statusCode: 201, data: { id: 'sh_1', status: 'pending', credits_used: 8 } };
    });
    const shoot = await client().createShoot({
      productImageUrls: ['https://cdn.example.com/p.png'],
      style: 'classic',
      mode: 'with_model',
      modelUrl: 'https://cdn.example.com/m.png',
      quality: 'pro',
      aspectRatio: '4:5',
    });
    expect(shoot).toMatchObject({ id: 'sh_1', phase: 'running', creditsUsed: 8 });
    expect(seen!.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'adbatch-test',
    });
    expect(seen!.body).toEqual({
      product_image_urls: ['https://cdn.example.com/p.png'],
      style: 'classic',
      mode: 'with_model',
      model_url: 'https://cdn.example.com/m.png',
      quality: 'pro',
      aspect_ratio: '4:5',
    });

    let healthHeaders: Record<string, string> = {};
    pool.intercept({ path: '/v1/health', method: 'GET' }).reply((options) => {
      healthHeaders = options.headers as Record<string, string>;
      return { statusCode: 200, data: 'OK' };
    });
    expect(await client().health()).toEqual({ ok: true, status: null, version: null, sandbox: false });
    expect(healthHeaders).not.toHaveProperty('authorization');
  });

  it('encodes ids and usage queries (parameter names from guesses.ts)', async () => {
    const pool = agent.get('https://ads.example.com');
    pool
      .intercept({ path: '/v1/videos/a%2Fb', method: 'GET' })
      .reply(200, { id: 'a/b', status: 'generating' });
    expect((await client().getVideo('a/b')).phase).toBe('running');

    pool
      .intercept({
        path: '/v1/usage?from=2026-01-01T00%3A00%3A00.000Z&to=2026-01-31&brand_id=brand_1',
        method: 'GET',
      })
      .reply(200, { object: 'usage_report', period: { from: '2026-01-01', to: '2026-01-31' } });
    const usage = await client().getUsage({
      from: new Date('2026-01-01T00:00:00Z'),
      to: '2026-01-31',
      brandId: 'brand_1',
    });
    expect(usage.period.to).toBe('2026-01-31');
  });

  it('refuses locally, without sending, an empty id or an invalid date', async () => {
    const empty = await failure(client().getShoot('  '));
    expect(empty).toBeInstanceOf(ValidationError);
    expect(empty).toMatchObject({ status: null, maybeSent: false });
    const badDate = await failure(client().getUsage({ from: new Date('nope') }));
    expect(badDate).toBeInstanceOf(ValidationError);
    expect(badDate.message).toContain('"from"');
  });

  it('reads an HTTP-date Retry-After', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    agent
      .get('https://ads.example.com')
      .intercept({ path: '/v1/models', method: 'GET' })
      .reply(429, 'slow down', { headers: { 'retry-after': at } });
    const error = (await failure(client().listModels())) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.serviceMessage).toBe('slow down');
  });

  it('treats a 2xx without the essential fields as malformed, and a 3xx as unexpected', async () => {
    const pool = agent.get('https://ads.example.com');
    pool.intercept({ path: '/v1/videos', method: 'POST' }).reply(201, { status: 'pending' });
    const malformed = await failure(
      client().createVideo({ imageUrls: ['u'], duration: 5, resolution: '480p' }),
    );
    expect(malformed).toBeInstanceOf(MalformedResponseError);
    expect(malformed).toMatchObject({ maybeSent: true });
    expect(malformed.message).toContain('id');
    expect(malformed.message).toContain('The video may have been created');

    pool.intercept({ path: '/v1/credits', method: 'GET' }).reply(204, '');
    expect(await failure(client().getCredits())).toBeInstanceOf(MalformedResponseError);

    pool.intercept({ path: '/v1/brands', method: 'GET' }).reply(302, '', { headers: { location: '/login' } });
    expect(await failure(client().listBrands())).toBeInstanceOf(ServerError);
  });

  it('reports a socket error after sending as maybe sent', async () => {
    agent
      .get('https://ads.example.com')
      .intercept({ path: '/v1/shoots', method: 'POST' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const error = await failure(client().createShoot({ productImageUrls: ['u'], style: 'minimal' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ maybeSent: true, code: 'ECONNRESET' });
    expect(error.message).toContain('The shoot may have been created and charged anyway');
  });

  it('never shows the key when inspected', async () => {
    const { inspect } = await import('node:util');
    const shown = `${inspect(client(), { showHidden: true, depth: 5 })} ${JSON.stringify(client())}`;
    expect(shown).not.toContain(KEY);
    expect(shown).toContain('…ee42');
  });
});
