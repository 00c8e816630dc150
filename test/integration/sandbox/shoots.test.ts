import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchBytes, isSubsequence, type ShootBody } from '../../support/sandbox-client.ts';
import {
  type DefaultHarness,
  type Harness,
  newKey,
  startDefaultHarness,
  startHarness,
} from '../../support/sandbox-harness.ts';

// POST /v1/shoots and GET /v1/shoots/{id}: validation, prices, 402, the status progression and the results.

const NO_RATE_LIMIT = '100000/60s';
const SHOOT_ORDER = ['pending', 'analyzing', 'generating', 'completed'];

async function imageSize(
  bytes: Buffer,
): Promise<{ width: number; height: number; format: string | undefined }> {
  const metadata = await sharp(bytes).metadata();
  return { width: metadata.width ?? 0, height: metadata.height ?? 0, format: metadata.format };
}

describe('POST /v1/shoots validation (400)', () => {
  let h: DefaultHarness;
  // Real time: nothing created here may move on while a test looks at it.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  const valid = () => ({ product_image_urls: [h.missingPhoto], style: 'classic', shots: 1 });
  const nineUrls = () => Array.from({ length: 9 }, (_, index) => `http://127.0.0.1/p${index}.png`);

  // [rule, change to a valid body, expected code, the field the message must name]
  const cases: Array<[string, (body: Record<string, unknown>) => void, string, string]> = [
    ['product_image_urls missing', (b) => delete b.product_image_urls, 'missing_field', 'product_image_urls'],
    ['product_image_urls null', (b) => (b.product_image_urls = null), 'missing_field', 'product_image_urls'],
    [
      'product_image_urls not an array',
      (b) => (b.product_image_urls = 'http://127.0.0.1/a.png'),
      'invalid_field',
      'product_image_urls',
    ],
    ['product_image_urls empty', (b) => (b.product_image_urls = []), 'invalid_field', 'product_image_urls'],
    [
      'product_image_urls with 9 URLs',
      (b) => (b.product_image_urls = nineUrls()),
      'invalid_field',
      'product_image_urls',
    ],
    [
      'an ftp:// product URL',
      (b) => (b.product_image_urls = ['ftp://127.0.0.1/a.png']),
      'invalid_field',
      'product_image_urls[0]',
    ],
    [
      'a non-string product URL',
      (b) => (b.product_image_urls = ['http://127.0.0.1/a.png', 42]),
      'invalid_field',
      'product_image_urls[1]',
    ],
    [
      'a relative product URL',
      (b) => (b.product_image_urls = ['/a.png']),
      'invalid_field',
      'product_image_urls[0]',
    ],
    ['style missing', (b) => delete b.style, 'missing_field', 'style'],
    ['style unknown', (b) => (b.style = 'baroque'), 'invalid_field', 'style'],
    ['style in the wrong case', (b) => (b.style = 'Classic'), 'invalid_field', 'style'],
    ['mode unknown', (b) => (b.mode = 'with_models'), 'invalid_field', 'mode'],
    ['with_model without model_url', (b) => (b.mode = 'with_model'), 'missing_field', 'model_url'],
    [
      'with_model with an ftp:// model_url',
      (b) => Object.assign(b, { mode: 'with_model', model_url: 'ftp://127.0.0.1/m.png' }),
      'invalid_field',
      'model_url',
    ],
    [
      'model_url with product_only',
      (b) => Object.assign(b, { mode: 'product_only', model_url: 'http://127.0.0.1/m.png' }),
      'invalid_field',
      'model_url',
    ],
    [
      'model_url with the default mode',
      (b) => (b.model_url = 'http://127.0.0.1/m.png'),
      'invalid_field',
      'model_url',
    ],
    ['shots 2', (b) => (b.shots = 2), 'invalid_field', 'shots'],
    ['shots 5', (b) => (b.shots = 5), 'invalid_field', 'shots'],
    ['shots 0', (b) => (b.shots = 0), 'invalid_field', 'shots'],
    ['shots as a string', (b) => (b.shots = '4'), 'invalid_field', 'shots'],
    ['aspect_ratio 2:1', (b) => (b.aspect_ratio = '2:1'), 'invalid_field', 'aspect_ratio'],
    ['aspect_ratio 16/9', (b) => (b.aspect_ratio = '16/9'), 'invalid_field', 'aspect_ratio'],
    ['quality hd', (b) => (b.quality = 'hd'), 'invalid_field', 'quality'],
    ['quality 8k', (b) => (b.quality = '8k'), 'invalid_field', 'quality'],
    [
      'background_color a colour name',
      (b) => (b.background_color = 'red'),
      'invalid_field',
      'background_color',
    ],
    [
      'background_color 5 hex digits',
      (b) => (b.background_color = '#12345'),
      'invalid_field',
      'background_color',
    ],
    [
      'background_color a number',
      (b) => (b.background_color = 0xffffff),
      'invalid_field',
      'background_color',
    ],
    ['callback_url not a URL', (b) => (b.callback_url = 'call me'), 'invalid_field', 'callback_url'],
    [
      'callback_url ftp://',
      (b) => (b.callback_url = 'ftp://127.0.0.1/hook'),
      'invalid_field',
      'callback_url',
    ],
  ];

  it.each(cases)('%s', async (_rule, change, code, field) => {
    const body: Record<string, unknown> = valid();
    change(body);
    const response = await h.client.createShoot(h.keys.personal, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message).toContain(field);
    expect(await h.client.credits(h.keys.personal)).toBe(500);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"classic"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('a JSON body that is %s is 400 invalid_json', async (_label, rawBody) => {
    const response = await h.client.call('POST', '/v1/shoots', { key: h.keys.personal, rawBody });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(response.body.error.message).toMatch(/object/i);
  });

  it('a body that is not valid JSON is 400 invalid_json', async () => {
    const response = await h.client.call('POST', '/v1/shoots', {
      key: h.keys.personal,
      rawBody: '{"style": "classic", "product_image_urls": [',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(response.body.error.message).toMatch(/JSON/);
  });

  it('reports the first broken rule in the order of the description (style before quality)', async () => {
    const response = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.missingPhoto],
      quality: 'hd',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'missing_field' });
    expect(response.body.error.message).toContain('style');
  });

  it('accepts every documented style', async () => {
    const styles = [
      'classic',
      'minimal',
      'luxury',
      'loud_luxury',
      'magazine',
      'editorial',
      'avant_garde',
      'element',
      'influencer',
      'lifestyle',
    ];
    for (const style of styles) {
      const response = await h.client.createShoot(h.keys.agency, { ...valid(), style });
      expect(response.status, style).toBe(201);
    }
  });

  it('accepts every aspect ratio the sandbox documents', async () => {
    for (const ratio of ['1:1', '4:5', '5:4', '3:4', '4:3', '2:3', '3:2', '9:16', '16:9', '21:9']) {
      const response = await h.client.createShoot(h.keys.agency, { ...valid(), aspect_ratio: ratio });
      expect(response.status, ratio).toBe(201);
    }
  });

  it('accepts 8 product URLs, #rgb and #rrggbb colours, an https callback_url and ignores unknown fields', async () => {
    const eight = Array.from({ length: 8 }, () => h.missingPhoto);
    for (const body of [
      { ...valid(), product_image_urls: eight },
      { ...valid(), background_color: '#abc' },
      { ...valid(), background_color: '#F4EFE6' },
      { ...valid(), callback_url: 'https://hooks.example.test/adbatch' },
      { ...valid(), frobnicate: true, extra: { nested: 1 } },
      { ...valid(), mode: 'with_model', model_url: h.missingPhoto },
    ]) {
      const response = await h.client.createShoot(h.keys.personal, body);
      expect(response.status, JSON.stringify(body)).toBe(201);
      expect(response.body.object).toBe('shoot');
    }
  });

  it('defaults to 4 shots, standard quality (4 credits)', async () => {
    const response = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.missingPhoto],
      style: 'magazine',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ shots: 4, credits_used: 4, credits_remaining: 496 });
    expect(response.body).not.toHaveProperty('shots_adjusted');
  });
});

describe('shoot prices', () => {
  let h: DefaultHarness;
  // Real time and an unreachable photo: the jobs stay pending for seconds and never render, so the
  // balance seen right after each create is the reservation alone.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  // [style, requested shots, quality, shots charged, clamped, credits]: 1/2/4 credits per image.
  const PRICES: Array<[string, number, string, number, boolean, number]> = [
    ['classic', 1, 'standard', 1, false, 1],
    ['classic', 1, 'pro', 1, false, 2],
    ['classic', 1, '4k', 1, false, 4],
    ['classic', 4, 'standard', 4, false, 4],
    ['classic', 4, 'pro', 4, false, 8],
    ['classic', 4, '4k', 4, false, 16],
    ['classic', 6, 'standard', 6, false, 6],
    ['classic', 6, 'pro', 6, false, 12],
    ['classic', 6, '4k', 6, false, 24],
    ['luxury', 1, 'standard', 1, false, 1],
    ['luxury', 1, 'pro', 1, false, 2],
    ['luxury', 1, '4k', 1, false, 4],
    ['luxury', 4, 'standard', 4, false, 4],
    ['luxury', 4, 'pro', 4, false, 8],
    ['luxury', 4, '4k', 4, false, 16],
    ['luxury', 6, 'standard', 4, true, 4],
    ['luxury', 6, 'pro', 4, true, 8],
    ['luxury', 6, '4k', 4, true, 16],
  ];

  it.each(PRICES)(
    '%s, %i shots, %s costs what the rules say',
    async (style, shots, quality, charged, clamped, credits) => {
      const response = await h.client.createShoot(h.keys.personal, {
        product_image_urls: [h.missingPhoto],
        style,
        shots,
        quality,
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        object: 'shoot',
        status: 'pending',
        shots: charged,
        credits_used: credits,
        credits_remaining: 500 - credits,
        images: [],
      });
      if (clamped) expect(response.body.shots_adjusted).toBe(true);
      else expect(response.body).not.toHaveProperty('shots_adjusted');
      expect(await h.client.credits(h.keys.personal)).toBe(500 - credits);

      const poll = await h.client.call<ShootBody>('GET', `/v1/shoots/${response.body.id}`, {
        key: h.keys.personal,
      });
      expect(poll.body).toMatchObject({
        shots: charged,
        credits_used: credits,
        credits_remaining: 500 - credits,
      });
    },
  );

  it('6 shots are honoured for minimal and clamped for the other non-classic styles', async () => {
    const minimal = await h.client.createShoot(h.keys.agency, {
      product_image_urls: [h.missingPhoto],
      style: 'minimal',
      shots: 6,
    });
    expect(minimal.body).toMatchObject({ shots: 6, credits_used: 6 });
    expect(minimal.body).not.toHaveProperty('shots_adjusted');
    for (const style of [
      'loud_luxury',
      'magazine',
      'editorial',
      'avant_garde',
      'element',
      'influencer',
      'lifestyle',
    ]) {
      const clamped = await h.client.createShoot(h.keys.agency, {
        product_image_urls: [h.missingPhoto],
        style,
        shots: 6,
      });
      expect(clamped.body, style).toMatchObject({ shots: 4, shots_adjusted: true, credits_used: 4 });
    }
  });
});

describe('402 when the balance is short', () => {
  let h: Harness;
  const personal = newKey();
  const agencyUnpinned = newKey();
  const agencyPinned = newKey();
  beforeAll(async () => {
    h = await startHarness({
      timeScale: 1,
      rateLimit: NO_RATE_LIMIT,
      accounts: {
        accounts: [
          { name: 'Small Studio', type: 'personal', credits: 5, keys: [{ key: personal }] },
          {
            name: 'Tiny Agency',
            type: 'agency',
            credits: 10,
            plan: 'partner',
            brands: [{ id: 'brand_one', name: 'One' }],
            keys: [{ key: agencyUnpinned }, { key: agencyPinned, brand_id: 'brand_one' }],
          },
        ],
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  const shoot = (shots: number, quality = 'standard') => ({
    product_image_urls: [h.missingPhoto],
    style: 'classic',
    shots,
    quality,
  });

  it('refuses a shoot the balance cannot cover with 402 insufficient_credits and leaves the balance untouched', async () => {
    expect((await h.client.createShoot(personal, shoot(4))).status).toBe(201);
    expect(await h.client.credits(personal)).toBe(1);

    const refused = await h.client.createShoot(personal, shoot(4));
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(refused.body.error.message).toContain('4');
    expect(await h.client.credits(personal)).toBe(1);

    // Exactly the balance is enough.
    const last = await h.client.createShoot(personal, shoot(1));
    expect(last.status).toBe(201);
    expect(last.body.credits_remaining).toBe(0);
    expect(await h.client.credits(personal)).toBe(0);
    expect((await h.client.createShoot(personal, shoot(1))).status).toBe(402);
  });

  it('a price above the whole balance is 402 from the start', async () => {
    const refused = await h.client.createShoot(personal, shoot(4, 'pro'));
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(await h.client.credits(personal)).toBe(5);
  });

  it('the agency pool is shared by the pinned and the unpinned key', async () => {
    const spent = await h.client.createShoot(agencyPinned, shoot(4, 'pro'));
    expect(spent.status).toBe(201);
    expect(spent.body.credits_remaining).toBe(2);
    expect(await h.client.credits(agencyUnpinned)).toBe(2);
    expect(await h.client.credits(agencyPinned)).toBe(2);

    for (const key of [agencyUnpinned, agencyPinned]) {
      const refused = await h.client.createShoot(key, shoot(4));
      expect(refused.status).toBe(402);
      expect(refused.body.error.code).toBe('insufficient_credits');
    }
    expect(await h.client.credits(agencyUnpinned)).toBe(2);

    expect((await h.client.createShoot(agencyUnpinned, shoot(1, 'pro'))).status).toBe(201);
    expect(await h.client.credits(agencyPinned)).toBe(0);
    // The personal account is a different balance.
    expect(await h.client.credits(personal)).toBe(5);
  });
});

describe('shoot lifecycle and results', () => {
  let h: DefaultHarness;
  // 0.05: pending lasts 37-112 ms, analyzing 240-360 ms, generating about 250 ms per standard shot, so a
  // poll every few milliseconds sees every status.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 0.05, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  afterEach(() => expect(h.errors).toEqual([]));

  it('goes pending -> analyzing -> generating -> completed, images filled only when completed', async () => {
    const callback = h.photos.urlOf('hooks/shoot-done');
    const created = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.photo('hat')],
      style: 'classic',
      shots: 1,
      callback_url: callback,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'shoot', status: 'pending', images: [], shots: 1 });
    expect(Number.isNaN(Date.parse(created.body.created_at))).toBe(false);

    const { body, seen, polls } = await h.client.waitForStatus<ShootBody>(
      'shoots',
      created.body.id,
      h.keys.personal,
      {
        intervalMs: 5,
        initial: created.body.status,
      },
    );
    expect(isSubsequence(seen, SHOOT_ORDER)).toBe(true);
    // Every status lasts tens of milliseconds at this time scale: a 5 ms poll sees each one.
    expect(seen).toEqual(SHOOT_ORDER);
    expect(body.status).toBe('completed');

    for (const poll of polls) {
      expect(poll.id).toBe(created.body.id);
      expect(poll.credits_used).toBe(1);
      expect(poll.credits_remaining).toBe(created.body.credits_remaining);
      if (poll.status !== 'completed') expect(poll.images).toEqual([]);
    }
    expect(body.images).toHaveLength(1);
    expect(body.images[0]!.status).toBe('completed');
    // callback_url is reserved: results are polled, nothing is pushed.
    expect(h.photos.hits()).not.toContain('/hooks/shoot-done');
    expect(h.photos.hits()).toContain('/hat/solidus_hat.png');
  });

  it('serves each standard 1:1 image (1024x1024) and a smaller 320 px thumbnail without a key', async () => {
    const created = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.photo('capRed')],
      style: 'minimal',
      shots: 1,
    });
    const { body } = await h.client.waitForStatus<ShootBody>('shoots', created.body.id, h.keys.personal);
    expect(body.status).toBe('completed');
    const [entry] = body.images;
    expect(entry?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\//);

    const image = await fetchBytes(entry!.url!);
    expect(image.status).toBe(200);
    expect(image.contentType).toBe('image/jpeg');
    expect(await imageSize(image.bytes)).toEqual({ width: 1024, height: 1024, format: 'jpeg' });

    const thumbnail = await fetchBytes(entry!.thumbnail_url!);
    expect(thumbnail.status).toBe(200);
    const thumb = await imageSize(thumbnail.bytes);
    expect(thumb.format).toBe('jpeg');
    expect(Math.max(thumb.width, thumb.height)).toBe(320);
    expect(thumb.width).toBe(thumb.height);
    expect(thumbnail.bytes.length).toBeLessThan(image.bytes.length);
  });

  it('renders 4 standard 16:9 shots at 1024x576, each with its own URL', async () => {
    const created = await h.client.createShoot(h.keys.agency, {
      product_image_urls: [h.photo('tote'), h.photo('mug')],
      style: 'magazine',
      aspect_ratio: '16:9',
    });
    expect(created.body).toMatchObject({ shots: 4, credits_used: 4 });
    const { body } = await h.client.waitForStatus<ShootBody>('shoots', created.body.id, h.keys.agency);
    expect(body.status).toBe('completed');
    expect(body.images).toHaveLength(4);
    expect(new Set(body.images.map((image) => image.url)).size).toBe(4);
    for (const entry of body.images) {
      expect(entry.status).toBe('completed');
      const image = await fetchBytes(entry.url!);
      expect(await imageSize(image.bytes)).toMatchObject({ width: 1024, height: 576 });
      const thumb = await imageSize((await fetchBytes(entry.thumbnail_url!)).bytes);
      expect(thumb.width).toBe(320);
      expect(thumb.height).toBeLessThan(576);
    }
  });

  it('renders pro quality with a 2048 px long side (9:16 -> 1152x2048)', async () => {
    const created = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.photo('hoodie')],
      style: 'lifestyle',
      quality: 'pro',
      aspect_ratio: '9:16',
      shots: 1,
    });
    expect(created.body.credits_used).toBe(2);
    const { body } = await h.client.waitForStatus<ShootBody>('shoots', created.body.id, h.keys.personal);
    expect(body.status).toBe('completed');
    const image = await fetchBytes(body.images[0]!.url!);
    expect(await imageSize(image.bytes)).toMatchObject({ width: 1152, height: 2048 });
  });
});
