import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  type RemoteShoot,
  type RemoteVideo,
  ServerError,
  ServiceClient,
  UnauthorizedError,
  ValidationError,
} from '../../../../src-main/core/api/index.ts';
import { MAX_ANSWER_BYTES } from '../../../../src-main/core/api/transport.ts';
import { type Sandbox, startSandbox } from '../../../../src-main/sandbox/server.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from '../../../support/static-server.ts';

// The client against the real sandbox over HTTP: every endpoint's happy path, and every typed error the
// service (or a broken network between us) can produce. Faults are injected through the sandbox's control
// endpoints, and the sandbox's own request log tells whether a request was handled.

const newKey = () => `adsk_${randomBytes(32).toString('hex')}`;
const KEYS = { personal: newKey(), agency: newKey(), broke: newKey(), faults: newKey() };

let sandbox: Sandbox;
let photos: StaticServer;
let photoUrl: string;
const dispatcher = new Agent({ connections: 8 });

function clientFor(key: string, timeoutMs?: { create?: number; read?: number }): ServiceClient {
  return new ServiceClient({ baseUrl: sandbox.url, apiKey: key, dispatcher, timeoutMs });
}

async function control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const response = await request(`${sandbox.url}${path}`, {
    method,
    dispatcher,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.body.json()) as unknown;
  expect(response.statusCode, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

const injectFault = (rule: Record<string, unknown>) =>
  control('POST', '/_sandbox/faults', { times: 1, ...rule });

/** Catches the rejection of `promise`, failing the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

async function pollUntilDone<T extends RemoteShoot | RemoteVideo>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const job = await read();
    if (job.phase !== 'running' || Date.now() > deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  photos = await startStaticServer();
  photoUrl = photos.urlOf(PRODUCT_PHOTOS.capRed);
  sandbox = await startSandbox({
    port: 0,
    timeScale: 0.002,
    videoRenderer: 'bundled',
    accounts: {
      accounts: [
        { name: 'Jo Studio', type: 'personal', credits: 500, keys: [{ key: KEYS.personal }] },
        { name: 'Broke Studio', type: 'personal', credits: 2, keys: [{ key: KEYS.broke }] },
        { name: 'Fault Studio', type: 'personal', credits: 500, keys: [{ key: KEYS.faults }] },
        {
          name: 'Northwind Agency',
          type: 'agency',
          credits: 1000,
          plan: 'partner',
          brands: [
            { id: 'brand_acme', name: 'Acme Outdoor' },
            { id: 'brand_bloom', name: 'Bloom Cosmetics' },
          ],
          keys: [{ key: KEYS.agency }],
        },
      ],
    },
  });
});

afterEach(async () => {
  await control('DELETE', '/_sandbox/faults');
});

afterAll(async () => {
  await sandbox?.close();
  await photos?.close();
  await dispatcher.close();
});

describe('happy paths', () => {
  it('creates a shoot and polls it to completed with image URLs', async () => {
    const client = clientFor(KEYS.personal);
    const created = await client.createShoot({ productImageUrls: [photoUrl], style: 'classic', shots: 1 });
    expect(created).toMatchObject({
      phase: 'running',
      shots: 1,
      shotsAdjusted: false,
      creditsUsed: 1,
      images: [],
    });
    expect(created.id).toEqual(expect.any(String));
    expect(created.creditsRemaining).toBe(499);

    const done = await pollUntilDone(() => client.getShoot(created.id));
    expect(done).toMatchObject({ id: created.id, status: 'completed', phase: 'completed', failure: null });
    expect(done.images).toHaveLength(1);
    const [image] = done.images;
    expect(image?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/.+\/shot-1\.jpg$/);
    expect(image?.thumbnailUrl).toMatch(/thumb-1\.jpg$/);

    // The key travels as a bearer token: the sandbox logs the last 4 characters of what it was given.
    const logged = sandbox.requests().find((entry) => entry.method === 'POST' && entry.path === '/v1/shoots');
    expect(logged?.key).toBe(KEYS.personal.slice(-4));
    expect(logged?.body).toEqual({ product_image_urls: [photoUrl], style: 'classic', shots: 1 });
  });

  it('reports a requested 6 clamped to 4', async () => {
    const shoot = await clientFor(KEYS.agency).createShoot({
      productImageUrls: [photoUrl],
      style: 'luxury',
      shots: 6,
    });
    expect(shoot).toMatchObject({ shots: 4, shotsAdjusted: true, creditsUsed: 4 });
  });

  it('creates a video and polls it', async () => {
    const client = clientFor(KEYS.personal);
    const created = await client.createVideo({ imageUrls: [photoUrl], duration: 5, resolution: '480p' });
    // ceil(2 credits/s x 5 s x 0.85 for product_only)
    expect(created).toMatchObject({ phase: 'running', creditsUsed: 9, videoUrl: null });
    const done = await pollUntilDone(() => client.getVideo(created.id));
    expect(done).toMatchObject({ id: created.id, phase: 'completed' });
    expect(done.videoUrl).toMatch(/\/video\.mp4$/);
  });

  it('reads a personal balance and an agency pool', async () => {
    const personal = await clientFor(KEYS.personal).getCredits();
    expect(personal).toEqual({ credits: expect.any(Number), pool: false, tenant: null });
    const agency = await clientFor(KEYS.agency).getCredits();
    expect(agency).toEqual({ credits: expect.any(Number), pool: true, tenant: 'Northwind Agency' });
  });

  it('reads usage with an open period, and passes the query parameters', async () => {
    const open = await clientFor(KEYS.personal).getUsage();
    expect(open.period.to).toBeNull();
    expect(open.period.from).toMatch(/^\d{4}-\d{2}-01T00:00:00/);
    expect(open.rows).toEqual([]);
    expect(open.totals.credits).toEqual(expect.any(Number));

    const from = new Date(Date.now() - 3_600_000);
    const to = new Date(Date.now() + 3_600_000);
    const acme = await clientFor(KEYS.agency).getUsage({ from, to, brandId: 'brand_acme' });
    expect(acme.period).toEqual({ from: from.toISOString(), to: to.toISOString() });
    const logged = sandbox.requests().filter((entry) => entry.path.startsWith('/v1/usage?'));
    expect(logged.at(-1)?.path).toContain('brand_id=brand_acme');
  });

  it('lists and creates brands, and reports a name clash and a full plan', async () => {
    const client = clientFor(KEYS.agency);
    const brands = await client.listBrands();
    expect(brands.map((brand) => brand.name)).toEqual(['Acme Outdoor', 'Bloom Cosmetics']);
    expect(brands[0]).toMatchObject({ id: 'brand_acme', active: true });

    const created = await client.createBrand('Cedar Home');
    expect(created).toMatchObject({ name: 'Cedar Home', active: true, createdAt: expect.any(String) });
    expect((await client.listBrands()).map((brand) => brand.id)).toContain(created.id);

    const clash = await failure(client.createBrand('cedar home'));
    expect(clash).toBeInstanceOf(ConflictError);
    expect(clash).toMatchObject({ status: 409, maybeSent: false });
    const full = await failure(client.createBrand('Dune Apparel'));
    expect(full).toBeInstanceOf(ForbiddenError);
    expect(full.message).toContain('no room for another brand');
  });

  it('lists the models', async () => {
    const models = await clientFor(KEYS.personal).listModels();
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      expect(model).toMatchObject({
        id: expect.any(String),
        isPreset: true,
        imageUrl: expect.stringMatching(/^http/),
      });
    }
  });

  it('checks health without sending the key', async () => {
    const health = await clientFor(KEYS.personal).health();
    expect(health).toEqual({ ok: true, status: 'ok', version: '1.0.0', sandbox: true });
    const logged = sandbox.requests().filter((entry) => entry.path === '/v1/health');
    expect(logged.at(-1)?.key).toBeNull();
  });
});

describe('typed errors from the service', () => {
  it('400: ValidationError naming the field, nothing created', async () => {
    const error = await failure(
      clientFor(KEYS.personal).createShoot({
        productImageUrls: [photoUrl],
        style: 'baroque' as 'classic',
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_field', maybeSent: false });
    expect(error.message).toMatch(/^Could not create the shoot\..*style must be one of/);
  });

  it('401: UnauthorizedError with a bad key, which it never repeats in full', async () => {
    const badKey = `adsk_${'0'.repeat(60)}beef`;
    const error = await failure(clientFor(badKey).getCredits());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', maybeSent: false });
    expect(error.message).toContain('…beef');
    expect(error.message).not.toContain(badKey);
    expect(JSON.stringify(error)).not.toContain(badKey);
  });

  it('402: InsufficientCreditsError, nothing charged', async () => {
    const client = clientFor(KEYS.broke);
    const error = await failure(client.createShoot({ productImageUrls: [photoUrl], style: 'minimal' }));
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ status: 402, maybeSent: false });
    expect(error.message).toContain('not enough credits');
    expect((await client.getCredits()).credits).toBe(2);
  });

  it('403: ForbiddenError for a personal key on the brand endpoints', async () => {
    const error = await failure(clientFor(KEYS.personal).listBrands());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'agency_only', maybeSent: false });
    expect(error.message).toContain('needs an agency key');
  });

  it('404: NotFoundError for an unknown id', async () => {
    const client = clientFor(KEYS.personal);
    const error = await failure(client.getShoot('sh_does_not_exist'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      maybeSent: false,
      operation: 'GET /v1/shoots/sh_does_not_exist',
    });
    expect(await failure(client.getVideo('vid_nope'))).toBeInstanceOf(NotFoundError);
  });

  it('429: RateLimitedError with the wait the service asks for', async () => {
    const limited = await startSandbox({ port: 0, timeScale: 0.002, rateLimit: '3/60s' });
    try {
      const key = limited.accounts().find((account) => account.type === 'personal')!.keys[0]!.key;
      const client = new ServiceClient({ baseUrl: limited.url, apiKey: key, dispatcher });
      for (let i = 0; i < 3; i++) await client.getCredits();
      const error = await failure(client.getCredits());
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ status: 429, code: 'rate_limited', maybeSent: false });
      expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('injected faults', () => {
  const shoot = () =>
    clientFor(KEYS.faults).createShoot({ productImageUrls: [photoUrl], style: 'classic', shots: 1 });
  const balance = async () => (await clientFor(KEYS.faults).getCredits()).credits;
  const lastShootPost = () =>
    sandbox
      .requests()
      .filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots')
      .at(-1);

  it('503: ServerError, maybe sent', async () => {
    await injectFault({ method: 'POST', path: '/v1/shoots', action: 'status', status: 503 });
    const error = await failure(shoot());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', maybeSent: true });
    expect(error.message).toContain('may have been created and charged');
  });

  it('connection reset after handling: NetworkError, maybe sent, and the job does exist', async () => {
    const before = await balance();
    await injectFault({ method: 'POST', path: '/v1/shoots', action: 'reset' });
    const error = await failure(shoot());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: null, maybeSent: true });
    expect(lastShootPost()).toMatchObject({ fault: 'reset', status: null });
    // The sandbox created and charged the shoot although no answer came back: exactly why maybeSent is true.
    expect(await balance()).toBe(before - 1);
  });

  it('connection reset before handling: NetworkError, still maybe sent (the client cannot tell)', async () => {
    const before = await balance();
    await injectFault({ method: 'POST', path: '/v1/shoots', action: 'reset', when: 'before' });
    const error = await failure(shoot());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ maybeSent: true });
    expect(await balance()).toBe(before);
  });

  it('malformed 201: MalformedResponseError, maybe sent', async () => {
    const before = await balance();
    await injectFault({ method: 'POST', path: '/v1/shoots', action: 'malformed' });
    const error = await failure(shoot());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toMatchObject({ status: 201, maybeSent: true });
    expect(error.message).toContain('could not be read');
    expect(await balance()).toBe(before - 1);
  });

  it('malformed answer to a poll: MalformedResponseError', async () => {
    await injectFault({ method: 'GET', path: '/v1/credits', action: 'malformed' });
    expect(await failure(clientFor(KEYS.faults).getCredits())).toBeInstanceOf(MalformedResponseError);
  });

  it('an answer slower than the timeout: NetworkError, maybe sent', async () => {
    await injectFault({ method: 'POST', path: '/v1/videos', action: 'delay', delay_ms: 2000 });
    const client = clientFor(KEYS.personal, { create: 300 });
    const started = Date.now();
    const error = await failure(
      client.createVideo({ imageUrls: [photoUrl], duration: 5, resolution: '480p' }),
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ maybeSent: true, timedOut: true });
    expect(error.message).toContain('did not answer within 0.3 s');
    // The service carried on after the client gave up, and created the video: the outcome really was open.
    const deadline = Date.now() + 5000;
    const handled = () => sandbox.requests().find((entry) => entry.fault === 'delay')?.status;
    while (!handled() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handled()).toBe(201);
  });

  it('a closed port: NetworkError, not sent', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const client = new ServiceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEYS.personal,
      dispatcher,
    });
    const error = await failure(client.createShoot({ productImageUrls: [photoUrl], style: 'classic' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ maybeSent: false, code: 'ECONNREFUSED', timedOut: false });
    expect(error.message).toContain('connection was refused');
  });

  it('an answer that never ends: MalformedResponseError, maybe sent, read no further than its limit', async () => {
    // A service that answers a create's 201 with a JSON body that goes on for ever.
    let sent = 0;
    let ended: () => void = () => {};
    const cut = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const endless = createHttpServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"id":"shoot_1","padding":"');
      const chunk = Buffer.alloc(256 * 1024, 'x');
      const more = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      res.once('close', ended);
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const client = new ServiceClient({
        baseUrl: `http://127.0.0.1:${(endless.address() as AddressInfo).port}`,
        apiKey: KEYS.personal,
        dispatcher,
      });
      const error = await failure(client.createShoot({ productImageUrls: [photoUrl], style: 'classic' }));
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect(error).toMatchObject({ status: 201, maybeSent: true });
      expect(error.message).toContain(
        `it went on past ${MAX_ANSWER_BYTES / 1024 / 1024} MB, more than any answer of the service`,
      );
      // The client hung up: the service stopped sending soon after the limit.
      await cut;
      expect(sent).toBeGreaterThan(MAX_ANSWER_BYTES);
      expect(sent).toBeLessThan(4 * MAX_ANSWER_BYTES);
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});
