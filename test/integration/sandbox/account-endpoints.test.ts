import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  BrandBody,
  CreditsBody,
  ErrorBody,
  JobBody,
  ListBody,
  ModelBody,
  ShootBody,
  UsageBody,
  UsageRowBody,
} from '../../support/sandbox-client.ts';
import { fetchBytes } from '../../support/sandbox-client.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// GET /v1/credits, /v1/usage, /v1/brands (GET, POST) and /v1/models. (/v1/health: auth.test.ts.)

let h: DefaultHarness;

beforeAll(async () => {
  h = await startDefaultHarness({ timeScale: 0.002, rateLimit: '100000/60s' });
});
afterAll(() => h.close());
beforeEach(() => h.client.reset());

const get = <T>(path: string, key: string) => h.client.call<T & ErrorBody>('GET', path, { key });

describe('GET /v1/credits', () => {
  it('a personal key gets its account balance with balance "account" and no tenant', async () => {
    const response = await get<CreditsBody>('/v1/credits', h.keys.personal);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ credits: 500, balance: 'account', tenant: null });
  });

  it.each(['agency', 'agencyPinned'] as const)(
    'the %s key gets the shared pool and the agency name',
    async (role) => {
      const response = await get<CreditsBody>('/v1/credits', h.keys[role]);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ credits: 1000, balance: 'pool', tenant: 'Northwind Agency' });
    },
  );
});

describe('GET /v1/usage', () => {
  function startOfMonthUtc(): string {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  }

  /** Creates a job, waits for its end and checks it ended as intended. */
  async function finished(
    kind: 'shoots' | 'videos',
    key: string,
    body: Record<string, unknown>,
    expected: string,
  ) {
    const created = await h.client.call<JobBody & ErrorBody>('POST', `/v1/${kind}`, { key, body });
    expect(created.status, created.text).toBe(201);
    const { body: last } = await h.client.waitForStatus(kind, created.body.id, key, { timeoutMs: 40_000 });
    expect(last.status, JSON.stringify(last)).toBe(expected);
  }

  const row = (id: string, name: string, values: Partial<UsageRowBody> = {}): UsageRowBody => ({
    brand_id: id,
    brand_name: name,
    images: 0,
    image_credits: 0,
    videos: 0,
    video_credits: 0,
    ...values,
  });

  it('defaults to the period from the start of the current month to "now", and starts empty', async () => {
    const response = await get<UsageBody>('/v1/usage', h.keys.personal);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'usage_report',
      period: { from: startOfMonthUtc(), to: 'now' },
      data: [],
      totals: { images: 0, videos: 0, credits: 0 },
    });
  });

  it('reports per brand for agency keys: pinned jobs under the brand, unpinned ones under "unassigned"', async () => {
    const { agency, agencyPinned } = h.keys;
    // Pinned key: one completed standard shot (1), a failed 4-shot shoot (4, refunded), a failed video (9, refunded).
    await finished(
      'shoots',
      agencyPinned,
      { product_image_urls: [h.photo('hat')], style: 'classic', shots: 1 },
      'completed',
    );
    await finished(
      'shoots',
      agencyPinned,
      { product_image_urls: [h.missingPhoto], style: 'classic', shots: 4 },
      'failed',
    );
    await finished(
      'videos',
      agencyPinned,
      { image_urls: [h.missingPhoto], duration: 5, resolution: '480p' },
      'failed',
    );
    // Unpinned key: one completed standard shot (1) and one completed 5 s 480p product_only video (9).
    await finished(
      'shoots',
      agency,
      { product_image_urls: [h.photo('capRed')], style: 'minimal', shots: 1 },
      'completed',
    );
    await finished(
      'videos',
      agency,
      { image_urls: [h.photo('capRed')], duration: 5, resolution: '480p' },
      'completed',
    );

    const balance = await h.client.credits(agency);
    expect(balance).toBe(1000 - 1 - 1 - 9);

    const report = await get<UsageBody>('/v1/usage', agency);
    expect(report.status).toBe(200);
    expect(report.body.period.to).toBe('now');
    expect(report.body.data).toEqual([
      row('brand_acme_outdoor', 'Acme Outdoor', { images: 1, image_credits: 1 }),
      row('brand_bloom_cosmetics', 'Bloom Cosmetics'),
      row('unassigned', 'Unassigned', { images: 1, image_credits: 1, videos: 1, video_credits: 9 }),
    ]);
    expect(report.body.totals).toEqual({ images: 2, videos: 1, credits: 11 });
    expect(report.body.totals.credits).toBe(1000 - balance);

    // The pinned key sees only its brand.
    const pinned = await get<UsageBody>('/v1/usage', agencyPinned);
    expect(pinned.body.data).toEqual([
      row('brand_acme_outdoor', 'Acme Outdoor', { images: 1, image_credits: 1 }),
    ]);
    expect(pinned.body.totals).toEqual({ images: 1, videos: 0, credits: 1 });

    // brand_id filters to one brand.
    const filtered = await get<UsageBody>('/v1/usage?brand_id=brand_acme_outdoor', agency);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data).toEqual([
      row('brand_acme_outdoor', 'Acme Outdoor', { images: 1, image_credits: 1 }),
    ]);
    expect(filtered.body.totals).toEqual({ images: 1, videos: 0, credits: 1 });

    // A period that ended before the jobs, or starts after them, holds nothing.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const before = await get<UsageBody>(
      `/v1/usage?from=${encodeURIComponent('2020-01-01T00:00:00Z')}&to=${hourAgo}`,
      agency,
    );
    expect(before.status).toBe(200);
    expect(before.body.period).toEqual({ from: '2020-01-01T00:00:00.000Z', to: hourAgo });
    expect(before.body.totals).toEqual({ images: 0, videos: 0, credits: 0 });
    const after = await get<UsageBody>(`/v1/usage?from=${inAnHour}`, agency);
    expect(after.body.period).toEqual({ from: inAnHour, to: 'now' });
    expect(after.body.totals).toEqual({ images: 0, videos: 0, credits: 0 });
    const around = await get<UsageBody>(`/v1/usage?from=${hourAgo}&to=${inAnHour}`, agency);
    expect(around.body.totals).toEqual({ images: 2, videos: 1, credits: 11 });
  });

  describe('while a job runs', () => {
    let slow: DefaultHarness;
    // Real time: a job stays pending for seconds.
    beforeAll(async () => {
      slow = await startDefaultHarness({ timeScale: 1 });
    });
    afterAll(() => slow.close());

    it('counts a running job by its reservation, with no images yet, and nothing once it failed', async () => {
      const running = await slow.client.createShoot(slow.keys.agencyPinned, {
        product_image_urls: [slow.missingPhoto],
        style: 'classic',
        shots: 4,
        quality: 'pro',
      });
      expect(running.status).toBe(201);
      const during = await slow.client.call<UsageBody>('GET', '/v1/usage', { key: slow.keys.agency });
      expect(during.body.data[0]).toEqual(row('brand_acme_outdoor', 'Acme Outdoor', { image_credits: 8 }));
      expect(during.body.totals).toEqual({ images: 0, videos: 0, credits: 8 });

      expect((await slow.client.failJob(running.body.id)).status).toBe(200);
      const afterwards = await slow.client.call<UsageBody>('GET', '/v1/usage', { key: slow.keys.agency });
      expect(afterwards.body.totals).toEqual({ images: 0, videos: 0, credits: 0 });
      expect(await slow.client.credits(slow.keys.agency)).toBe(1000);
    });
  });

  it('a personal key gets data [] and its own totals, net of refunds', async () => {
    const { personal } = h.keys;
    await finished(
      'shoots',
      personal,
      { product_image_urls: [h.photo('mug')], style: 'classic', shots: 1 },
      'completed',
    );
    await finished(
      'shoots',
      personal,
      { product_image_urls: [h.missingPhoto], style: 'classic', shots: 4 },
      'failed',
    );
    const report = await get<UsageBody>('/v1/usage', personal);
    expect(report.status).toBe(200);
    expect(report.body.data).toEqual([]);
    expect(report.body.totals).toEqual({ images: 1, videos: 0, credits: 1 });
    expect(report.body.totals.credits).toBe(500 - (await h.client.credits(personal)));
  });

  it('brand_id with a personal key is 400', async () => {
    const response = await get<UsageBody>('/v1/usage?brand_id=brand_acme_outdoor', h.keys.personal);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_field');
    expect(response.body.error.message).toContain('brand_id');
  });

  it('an unknown brand_id is 400', async () => {
    const response = await get<UsageBody>('/v1/usage?brand_id=brand_nope', h.keys.agency);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain('brand_id');
  });

  it.each([
    ['from is not a date', '?from=yesterday', 'from'],
    ['to is not a date', '?to=2024-13-45', 'to'],
    ['to is before from', '?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z', 'to'],
  ])('%s: 400 invalid_field', async (_label, query, field) => {
    const response = await get<UsageBody>(`/v1/usage${query}`, h.keys.agency);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_field');
    expect(response.body.error.message).toContain(field);
  });
});

describe('/v1/brands', () => {
  it.each(['GET', 'POST'])('%s with a personal key is 403 agency_only', async (method) => {
    const response = await h.client.call(method, '/v1/brands', {
      key: h.keys.personal,
      ...(method === 'POST' ? { body: { name: 'Mine' } } : {}),
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('agency_only');
  });

  it('lists the agency brands, oldest first', async () => {
    const response = await get<ListBody<BrandBody>>('/v1/brands', h.keys.agency);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.data.map((brand) => [brand.id, brand.name, brand.active])).toEqual([
      ['brand_acme_outdoor', 'Acme Outdoor', true],
      ['brand_bloom_cosmetics', 'Bloom Cosmetics', true],
    ]);
    for (const brand of response.body.data) expect(Number.isNaN(Date.parse(brand.created_at))).toBe(false);
  });

  it('creates a brand (201), then refuses the 4th on the Partner plan with 403 brand_quota_exceeded', async () => {
    const created = await h.client.call<BrandBody>('POST', '/v1/brands', {
      key: h.keys.agency,
      body: { name: '  Cedar Home  ' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Cedar Home', active: true });
    expect(created.body.id).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(created.body.created_at))).toBe(false);

    const list = await get<ListBody<BrandBody>>('/v1/brands', h.keys.agency);
    expect(list.body.data.map((brand) => brand.name)).toEqual([
      'Acme Outdoor',
      'Bloom Cosmetics',
      'Cedar Home',
    ]);

    const refused = await h.client.call('POST', '/v1/brands', {
      key: h.keys.agency,
      body: { name: 'Dune Surf' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('brand_quota_exceeded');
    expect((await get<ListBody<BrandBody>>('/v1/brands', h.keys.agency)).body.data).toHaveLength(3);
  });

  it('a new brand shows in usage', async () => {
    const created = await h.client.call<BrandBody>('POST', '/v1/brands', {
      key: h.keys.agency,
      body: { name: 'Cedar Home' },
    });
    const report = await get<UsageBody>('/v1/usage', h.keys.agency);
    expect(report.body.data.map((entry) => entry.brand_id)).toContain(created.body.id);
  });

  it('refuses a duplicate name, ignoring case, with 409 brand_exists', async () => {
    const response = await h.client.call('POST', '/v1/brands', {
      key: h.keys.agency,
      body: { name: 'acme OUTDOOR' },
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('brand_exists');
  });

  it.each([
    ['missing', {}, 'missing_field'],
    ['blank', { name: '   ' }, 'invalid_field'],
    ['not a string', { name: 7 }, 'invalid_field'],
    ['over 100 characters', { name: 'x'.repeat(101) }, 'invalid_field'],
  ])('a %s name is 400', async (_label, body, code) => {
    const response = await h.client.call('POST', '/v1/brands', { key: h.keys.agency, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message).toContain('name');
  });

  it('a pinned key lists only its brand and cannot create (403 forbidden)', async () => {
    const list = await get<ListBody<BrandBody>>('/v1/brands', h.keys.agencyPinned);
    expect(list.status).toBe(200);
    expect(list.body.data.map((brand) => brand.id)).toEqual(['brand_acme_outdoor']);
    const refused = await h.client.call('POST', '/v1/brands', {
      key: h.keys.agencyPinned,
      body: { name: 'Elm' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await get<ListBody<BrandBody>>('/v1/brands', h.keys.agency)).body.data).toHaveLength(2);
  });
});

describe('GET /v1/models', () => {
  it('lists the presets, each is_preset with a public image that decodes', async () => {
    const response = await get<ListBody<ModelBody>>('/v1/models', h.keys.personal);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.data.length).toBe(6);
    expect(new Set(response.body.data.map((model) => model.id)).size).toBe(6);
    for (const model of response.body.data) {
      expect(model).toMatchObject({ is_preset: true, id: expect.any(String), name: expect.any(String) });
      expect(model.tags.every((tag) => typeof tag === 'string')).toBe(true);
      const image = await fetchBytes(model.image_url);
      expect(image.status, model.image_url).toBe(200);
      const metadata = await sharp(image.bytes).metadata();
      expect(metadata.width).toBeGreaterThan(0);
      expect(metadata.height).toBeGreaterThan(0);
    }
    const agency = await get<ListBody<ModelBody>>('/v1/models', h.keys.agency);
    expect(agency.body.data.map((model) => model.id)).toEqual(response.body.data.map((model) => model.id));
  });

  it('a with_model shoot using a preset image_url completes', async () => {
    const models = await get<ListBody<ModelBody>>('/v1/models', h.keys.personal);
    const preset = models.body.data[0]!;
    const created = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.photo('hoodie')],
      style: 'influencer',
      mode: 'with_model',
      model_url: preset.image_url,
      shots: 1,
    });
    expect(created.status).toBe(201);
    const { body } = await h.client.waitForStatus<ShootBody>('shoots', created.body.id, h.keys.personal);
    expect(body.status).toBe('completed');
    expect((await fetchBytes(body.images[0]!.url!)).status).toBe(200);
  });
});
