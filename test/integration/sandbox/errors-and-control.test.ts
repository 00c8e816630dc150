import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrandBody, CreditsBody, ListBody, ShootBody } from '../../support/sandbox-client.ts';
import { fetchBytes } from '../../support/sandbox-client.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// Errors the sandbox chose where the description is silent (404, 405, 413, 415), and the control endpoints
// under /_sandbox/: the request log, fault injection and reset.

let h: DefaultHarness;

// Real time: jobs created here stay pending; an unreachable photo keeps them from rendering.
beforeAll(async () => {
  h = await startDefaultHarness({ timeScale: 1, rateLimit: '100000/60s' });
});
afterAll(() => h.close());
beforeEach(() => h.client.reset());

const shootBody = () => ({ product_image_urls: [h.missingPhoto], style: 'classic', shots: 1 });
const videoBody = () => ({ image_urls: [h.missingPhoto], duration: 5, resolution: '480p' });

/** fetch() that answers the error instead of throwing, for dropped connections. */
async function attempt(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return null;
  } catch (error) {
    return error;
  }
}

describe('errors', () => {
  it.each([
    ['shoots', '/v1/shoots/shoot_000000000000000000000000'],
    ['videos', '/v1/videos/video_000000000000000000000000'],
  ])('an unknown %s id is 404 not_found', async (_kind, path) => {
    const response = await h.client.call('GET', path, { key: h.keys.personal });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it("another account's shoot and video are 404 not_found, and a shoot id is no video id", async () => {
    const shoot = await h.client.createShoot(h.keys.personal, shootBody());
    const video = await h.client.createVideo(h.keys.agency, videoBody());
    for (const [path, key] of [
      [`/v1/shoots/${shoot.body.id}`, h.keys.agency],
      [`/v1/shoots/${shoot.body.id}`, h.keys.agencyPinned],
      [`/v1/videos/${video.body.id}`, h.keys.personal],
      [`/v1/videos/${shoot.body.id}`, h.keys.personal],
      [`/v1/shoots/${video.body.id}`, h.keys.agency],
    ] as const) {
      const response = await h.client.call('GET', path, { key });
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    // The owners still see them; both agency keys share the agency's jobs.
    expect((await h.client.call('GET', `/v1/shoots/${shoot.body.id}`, { key: h.keys.personal })).status).toBe(
      200,
    );
    expect(
      (await h.client.call('GET', `/v1/videos/${video.body.id}`, { key: h.keys.agencyPinned })).status,
    ).toBe(200);
  });

  it('an unknown route is 404 not_found, under /v1 and elsewhere', async () => {
    for (const path of ['/v1/shoot', '/v1/shoots/a/b', '/v2/shoots']) {
      const response = await h.client.call('GET', path, { key: h.keys.personal });
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const outside = await h.client.call('GET', '/index.html');
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe('not_found');
  });

  it.each([
    ['DELETE', '/v1/credits', 'GET'],
    ['PUT', '/v1/shoots', 'POST'],
    ['GET', '/v1/videos', 'POST'],
    ['POST', '/v1/shoots/shoot_1', 'GET'],
    ['PATCH', '/v1/brands', 'GET, POST'],
    ['POST', '/v1/models', 'GET'],
    ['DELETE', '/v1/usage', 'GET'],
  ])('%s %s is 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const response = await h.client.call(method, path, { key: h.keys.agency });
    expect(response.status).toBe(405);
    expect(response.body.error.code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('POST /v1/health is 405 method_not_allowed with Allow: GET', async () => {
    const response = await h.client.call('POST', '/v1/health');
    expect(response.status).toBe(405);
    expect(response.body.error.code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET');
  });

  // A malformed escape in an id cannot name anything: 404, not a 500 from the decoder.
  it.each([
    ['GET', '/v1/shoots/%ZZ'],
    ['GET', '/v1/videos/%E0%A4%A'],
  ])('%s %s (a malformed percent escape) is 404 not_found, not 500', async (method, path) => {
    const response = await h.client.call(method, path, { key: h.keys.personal });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('a body that is not application/json is 415 unsupported_media_type and creates nothing', async () => {
    const response = await h.client.call('POST', '/v1/shoots', {
      key: h.keys.personal,
      rawBody: JSON.stringify(shootBody()),
      contentType: 'text/plain',
    });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
    expect(await h.client.credits(h.keys.personal)).toBe(500);
  });

  it('a body over 1 MiB is 413 payload_too_large', async () => {
    const response = await h.client.call('POST', '/v1/shoots', {
      key: h.keys.personal,
      body: { ...shootBody(), note: 'x'.repeat(1024 * 1024 + 16) },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    expect(await h.client.credits(h.keys.personal)).toBe(500);
  });
});

describe('GET /_sandbox/requests', () => {
  it('logs method, path, status, the last 4 characters of the key and the POST body, in order', async () => {
    const { personal, agency } = h.keys;
    await h.client.call('GET', '/v1/health');
    await h.client.call('GET', '/v1/usage?from=2025-01-01T00:00:00Z', { key: agency, header: 'x-api-key' });
    const created = await h.client.createShoot(personal, shootBody());
    await h.client.call('POST', '/v1/shoots', { key: personal, rawBody: 'not json' });
    await h.client.call('GET', '/v1/credits', { key: 'adsk_bad' });
    await h.client.call('GET', '/_sandbox/faults');

    const log = await h.client.requestLog();
    expect(log.map(({ method, path, status, key }) => ({ method, path, status, key }))).toEqual([
      { method: 'GET', path: '/v1/health', status: 200, key: null },
      { method: 'GET', path: '/v1/usage?from=2025-01-01T00:00:00Z', status: 200, key: agency.slice(-4) },
      { method: 'POST', path: '/v1/shoots', status: 201, key: personal.slice(-4) },
      { method: 'POST', path: '/v1/shoots', status: 400, key: personal.slice(-4) },
      { method: 'GET', path: '/v1/credits', status: 401, key: '_bad' },
    ]);
    expect(log[2]!.body).toEqual(shootBody());
    expect(log[3]!.body).toBe('not json');
    expect(log[0]!.body).toBeNull();
    for (const entry of log) expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    expect(created.status).toBe(201);
    // The full key never shows.
    expect(JSON.stringify(log)).not.toContain(personal);
  });

  it('GET /_sandbox/accounts shows the accounts with their full keys, balances and plans', async () => {
    await h.client.createShoot(h.keys.agency, { ...shootBody(), shots: 4 });
    const response = await h.client.call<{
      data: Array<{
        name: string;
        type: string;
        credits: number;
        plan: string | null;
        keys: Array<{ key: string }>;
      }>;
    }>('GET', '/_sandbox/accounts');
    expect(response.status).toBe(200);
    const byName = new Map(response.body.data.map((account) => [account.name, account]));
    expect(byName.get('Personal')).toMatchObject({ type: 'personal', credits: 500, plan: null });
    expect(byName.get('Northwind Agency')).toMatchObject({ type: 'agency', credits: 996, plan: 'partner' });
    expect(
      byName
        .get('Northwind Agency')!
        .keys.map((key) => key.key)
        .sort(),
    ).toEqual([h.keys.agency, h.keys.agencyPinned].sort());
  });
});

describe('faults', () => {
  it('status: answers the status in the envelope and creates nothing', async () => {
    await h.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'status', status: 503 });
    const response = await h.client.createShoot(h.keys.personal, shootBody());
    expect(response.status).toBe(503);
    expect(response.body.error.code).toEqual(expect.any(String));
    expect(response.body.error.message).toEqual(expect.any(String));
    expect(await h.client.credits(h.keys.personal)).toBe(500);
    const [entry] = await h.client.requestLog();
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/shoots', status: 503, fault: 'status' });
  });

  it('status 429 uses the code rate_limited', async () => {
    await h.client.addFault({ path: '/v1/credits', action: 'status', status: 429 });
    const response = await h.client.call('GET', '/v1/credits', { key: h.keys.personal });
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe('rate_limited');
  });

  it('method filter: a POST rule leaves GETs on the same path alone; a path rule matches by prefix', async () => {
    const created = await h.client.createShoot(h.keys.personal, shootBody());
    await h.client.addFault({ method: 'post', path: '/v1/shoots', action: 'status', status: 500 });
    expect(
      (await h.client.call('GET', `/v1/shoots/${created.body.id}`, { key: h.keys.personal })).status,
    ).toBe(200);
    expect((await h.client.createShoot(h.keys.personal, shootBody())).status).toBe(500);
    await h.client.clearFaults();
    await h.client.addFault({ path: '/v1/shoots', action: 'status', status: 502 });
    expect(
      (await h.client.call('GET', `/v1/shoots/${created.body.id}`, { key: h.keys.personal })).status,
    ).toBe(502);
    expect((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status).toBe(200);
  });

  it('delay: waits delay_ms, then answers normally', async () => {
    await h.client.addFault({ path: '/v1/credits', action: 'delay', delay_ms: 300 });
    const started = performance.now();
    const response = await h.client.call<CreditsBody>('GET', '/v1/credits', { key: h.keys.personal });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(response.status).toBe(200);
    expect(response.body.credits).toBe(500);
  });

  it('reset (after): the shoot is created and charged, but the client gets no answer', async () => {
    await h.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'reset' });
    const error = await attempt(() => h.client.createShoot(h.keys.personal, { ...shootBody(), shots: 4 }));
    expect(error).toBeInstanceOf(Error);
    expect(await h.client.credits(h.keys.personal)).toBe(496);
    const log = await h.client.requestLog();
    expect(log.find((entry) => entry.method === 'POST')).toMatchObject({
      path: '/v1/shoots',
      status: null,
      fault: 'reset',
    });
  });

  it('reset (before): the connection drops and nothing is created', async () => {
    await h.client.addFault({ method: 'POST', path: '/v1/videos', action: 'reset', when: 'before' });
    const error = await attempt(() => h.client.createVideo(h.keys.agency, videoBody()));
    expect(error).toBeInstanceOf(Error);
    expect(await h.client.credits(h.keys.agency)).toBe(1000);
  });

  it('malformed: the request is handled, the real status comes back with a body that is not JSON', async () => {
    await h.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'malformed' });
    const response = await h.client.createShoot(h.keys.personal, {
      ...shootBody(),
      shots: 4,
      quality: 'pro',
    });
    expect(response.status).toBe(201);
    expect(response.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(response.text)).toThrow();
    expect(await h.client.credits(h.keys.personal)).toBe(492);
  });

  it('times: fires that many times, then retires', async () => {
    await h.client.addFault({ path: '/v1/credits', action: 'status', status: 503, times: 2 });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++)
      statuses.push((await h.client.call('GET', '/v1/credits', { key: h.keys.personal })).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect((await h.client.call<{ data: unknown[] }>('GET', '/_sandbox/faults')).body.data).toEqual([]);
  });

  it('probability: 0 never fires, 0.5 fires about half the time', async () => {
    await h.client.addFault({ path: '/v1/health', action: 'status', status: 503, probability: 0 });
    for (let index = 0; index < 30; index++)
      expect((await h.client.call('GET', '/v1/health')).status).toBe(200);
    await h.client.clearFaults();
    await h.client.addFault({ path: '/v1/health', action: 'status', status: 503, probability: 0.5 });
    let fired = 0;
    for (let index = 0; index < 200; index++)
      if ((await h.client.call('GET', '/v1/health')).status === 503) fired++;
    // Binomial(200, 0.5): outside 60..140 with probability below 1e-8.
    expect(fired).toBeGreaterThan(60);
    expect(fired).toBeLessThan(140);
  });

  it('GET lists the rules with their id; DELETE /_sandbox/faults clears them', async () => {
    const added = await h.client.addFault({ path: '/v1/models', action: 'status', status: 500 });
    expect(added.id).toEqual(expect.any(Number));
    const listed = await h.client.call<{ data: Array<{ id: number; path: string }> }>(
      'GET',
      '/_sandbox/faults',
    );
    expect(listed.body.data).toEqual([expect.objectContaining({ id: added.id, path: '/v1/models' })]);
    expect((await h.client.call('GET', '/v1/models', { key: h.keys.personal })).status).toBe(500);

    const cleared = await h.client.call('DELETE', '/_sandbox/faults');
    expect(cleared.status).toBe(200);
    expect((await h.client.call<{ data: unknown[] }>('GET', '/_sandbox/faults')).body.data).toEqual([]);
    expect((await h.client.call('GET', '/v1/models', { key: h.keys.personal })).status).toBe(200);
  });

  it('refuses an invalid rule with 400', async () => {
    for (const rule of [
      { path: '/v1', action: 'status' },
      { path: 'v1', action: 'delay', delay_ms: 5 },
      { path: '/v1', action: 'explode' },
    ]) {
      const response = await h.client.call('POST', '/_sandbox/faults', { body: rule });
      expect(response.status, JSON.stringify(rule)).toBe(400);
    }
  });
});

describe('POST /_sandbox/reset', () => {
  it('restores balances, brands, jobs, the log and faults, and keeps the keys', async () => {
    const shoot = await h.client.createShoot(h.keys.personal, { ...shootBody(), shots: 4 });
    await h.client.createVideo(h.keys.agency, videoBody());
    await h.client.call('POST', '/v1/brands', { key: h.keys.agency, body: { name: 'Cedar Home' } });
    await h.client.addFault({ path: '/v1/models', action: 'status', status: 500 });
    expect(await h.client.credits(h.keys.personal)).toBe(496);

    const reset = await h.client.call('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);

    expect(await h.client.requestLog()).toEqual([]);
    expect(await h.client.credits(h.keys.personal)).toBe(500);
    expect(await h.client.credits(h.keys.agencyPinned)).toBe(1000);
    const brands = await h.client.call<ListBody<BrandBody>>('GET', '/v1/brands', { key: h.keys.agency });
    expect(brands.body.data.map((brand) => brand.name)).toEqual(['Acme Outdoor', 'Bloom Cosmetics']);
    expect((await h.client.call('GET', `/v1/shoots/${shoot.body.id}`, { key: h.keys.personal })).status).toBe(
      404,
    );
    expect((await h.client.call('GET', '/v1/models', { key: h.keys.personal })).status).toBe(200);
    expect((await h.client.call<{ data: unknown[] }>('GET', '/_sandbox/faults')).body.data).toEqual([]);
  });
});

describe('faults on result files', () => {
  let fast: DefaultHarness;
  let shoot: ShootBody;
  beforeAll(async () => {
    fast = await startDefaultHarness({ timeScale: 0.002, rateLimit: '100000/60s' });
    const created = await fast.client.createShoot(fast.keys.personal, {
      product_image_urls: [fast.photo('capGray')],
      style: 'classic',
      shots: 1,
    });
    shoot = (await fast.client.waitForStatus<ShootBody>('shoots', created.body.id, fast.keys.personal)).body;
  });
  afterAll(() => fast.close());

  it('malformed corrupts the bytes but keeps the length; reset cuts the download short', async () => {
    expect(shoot.status).toBe('completed');
    const url = shoot.images[0]!.url!;
    const good = await fetchBytes(url);
    expect(good.status).toBe(200);

    await fast.client.addFault({ path: '/cdn/', action: 'malformed', times: 1 });
    const corrupted = await fetchBytes(url);
    expect(corrupted.bytes.length).toBe(good.bytes.length);
    expect(corrupted.bytes.equals(good.bytes)).toBe(false);

    await fast.client.addFault({ path: '/cdn/', action: 'reset', times: 1 });
    const cut = await attempt(async () => {
      const response = await fetch(url);
      await response.arrayBuffer();
    });
    expect(cut).toBeInstanceOf(Error);

    const log = await fast.client.requestLog();
    expect(log.filter((entry) => entry.path.startsWith('/cdn/')).map((entry) => entry.fault ?? null)).toEqual(
      [null, 'malformed', 'reset'],
    );
    // Result files carry no key.
    expect(log.filter((entry) => entry.path.startsWith('/cdn/')).every((entry) => entry.key === null)).toBe(
      true,
    );
    expect((await fetchBytes(url)).bytes.equals(good.bytes)).toBe(true);
  });

  it('POST /_sandbox/results/expire: results completed by then answer 410 (or 404), later ones are served', async () => {
    const url = shoot.images[0]!.url!;
    const thumbnail = shoot.images[0]!.thumbnail_url!;
    const expired = await fast.client.call<{ jobs: number; status: number }>(
      'POST',
      '/_sandbox/results/expire',
    );
    expect(expired.status).toBe(200);
    expect(expired.body.status).toBe(410);
    expect(expired.body.jobs).toBeGreaterThanOrEqual(1);
    expect((await fetch(url)).status).toBe(410);
    expect((await fetch(thumbnail, { headers: { range: 'bytes=0-0' } })).status).toBe(410);
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(410);

    const created = await fast.client.createShoot(fast.keys.personal, {
      product_image_urls: [fast.photo('hat')],
      style: 'minimal',
      shots: 1,
    });
    const later = (await fast.client.waitForStatus<ShootBody>('shoots', created.body.id, fast.keys.personal))
      .body;
    expect(later.status).toBe('completed');
    expect((await fetch(later.images[0]!.url!)).status).toBe(200);

    const named = await fast.client.call<{ jobs: number; status: number }>(
      'POST',
      '/_sandbox/results/expire',
      {
        body: { status: 404, job_ids: [later.id] },
      },
    );
    expect(named.body).toEqual({ jobs: 1, status: 404 });
    expect((await fetch(later.images[0]!.url!)).status).toBe(404);
    expect(
      (await fast.client.call('POST', '/_sandbox/results/expire', { body: { status: 500 } })).status,
    ).toBe(400);

    expect((await fast.client.call('DELETE', '/_sandbox/results/expire')).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(later.images[0]!.url!)).status).toBe(200);
  });

  it('result files answer HEAD and byte ranges without a key', async () => {
    const url = shoot.images[0]!.thumbnail_url!;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const size = Number(head.headers.get('content-length'));
    expect(size).toBeGreaterThan(100);
    const range = await fetch(url, { headers: { range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-9/${size}`);
    const bytes = Buffer.from(await range.arrayBuffer());
    expect(bytes.length).toBe(10);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});
