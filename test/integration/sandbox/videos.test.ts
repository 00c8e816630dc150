import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchBytes, isSubsequence, type VideoBody } from '../../support/sandbox-client.ts';
import {
  type DefaultHarness,
  type Harness,
  newKey,
  startDefaultHarness,
  startHarness,
} from '../../support/sandbox-harness.ts';

// POST /v1/videos and GET /v1/videos/{id}: validation, all 18 prices, 402, the progression and the MP4.

const NO_RATE_LIMIT = '100000/60s';
const FFPROBE = '/usr/bin/ffprobe';
const VIDEO_ORDER = ['pending', 'generating', 'completed'];

describe('POST /v1/videos validation (400)', () => {
  let h: DefaultHarness;
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  const valid = (): Record<string, unknown> => ({
    image_urls: [h.missingPhoto],
    duration: 5,
    resolution: '480p',
  });
  const urls = (count: number) =>
    Array.from({ length: count }, (_, index) => `http://127.0.0.1/v${index}.png`);

  // [rule, change to a valid body, expected code, the field the message must name]
  const cases: Array<[string, (body: Record<string, unknown>) => void, string, string]> = [
    ['image_urls missing', (b) => delete b.image_urls, 'missing_field', 'image_urls'],
    [
      'image_urls not an array',
      (b) => (b.image_urls = 'http://127.0.0.1/a.png'),
      'invalid_field',
      'image_urls',
    ],
    ['image_urls empty', (b) => (b.image_urls = []), 'invalid_field', 'image_urls'],
    [
      'an ftp:// image URL',
      (b) => (b.image_urls = ['ftp://127.0.0.1/a.png']),
      'invalid_field',
      'image_urls[0]',
    ],
    [
      'a non-string image URL',
      (b) => (b.image_urls = [{ url: 'http://127.0.0.1/a.png' }]),
      'invalid_field',
      'image_urls[0]',
    ],
    ['duration missing', (b) => delete b.duration, 'missing_field', 'duration'],
    ['duration 7', (b) => (b.duration = 7), 'invalid_field', 'duration'],
    ['duration 20', (b) => (b.duration = 20), 'invalid_field', 'duration'],
    ['duration 0', (b) => (b.duration = 0), 'invalid_field', 'duration'],
    ['duration as a string', (b) => (b.duration = '10'), 'invalid_field', 'duration'],
    ['resolution missing', (b) => delete b.resolution, 'missing_field', 'resolution'],
    ['resolution 4k', (b) => (b.resolution = '4k'), 'invalid_field', 'resolution'],
    ['resolution without the p', (b) => (b.resolution = '720'), 'invalid_field', 'resolution'],
    [
      '2 images for 5 s',
      (b) => Object.assign(b, { duration: 5, image_urls: urls(2) }),
      'invalid_field',
      'image_urls',
    ],
    [
      '4 images for 10 s',
      (b) => Object.assign(b, { duration: 10, image_urls: urls(4) }),
      'invalid_field',
      'image_urls',
    ],
    [
      '5 images for 15 s',
      (b) => Object.assign(b, { duration: 15, image_urls: urls(5) }),
      'invalid_field',
      'image_urls',
    ],
    ['mode unknown', (b) => (b.mode = 'model'), 'invalid_field', 'mode'],
    [
      'aspect_ratio 5:4 (a shoot ratio only)',
      (b) => (b.aspect_ratio = '5:4'),
      'invalid_field',
      'aspect_ratio',
    ],
    ['aspect_ratio 2:3', (b) => (b.aspect_ratio = '2:3'), 'invalid_field', 'aspect_ratio'],
    ['logo_url ftp://', (b) => (b.logo_url = 'ftp://127.0.0.1/logo.png'), 'invalid_field', 'logo_url'],
    ['logo_url relative', (b) => (b.logo_url = 'logo.png'), 'invalid_field', 'logo_url'],
    ['music a string', (b) => (b.music = 'yes'), 'invalid_field', 'music'],
    ['music a number', (b) => (b.music = 1), 'invalid_field', 'music'],
    ['note a number', (b) => (b.note = 42), 'invalid_field', 'note'],
    ['note an array', (b) => (b.note = ['warm']), 'invalid_field', 'note'],
    ['callback_url not a URL', (b) => (b.callback_url = 'later'), 'invalid_field', 'callback_url'],
  ];

  it.each(cases)('%s', async (_rule, change, code, field) => {
    const body = valid();
    change(body);
    const response = await h.client.createVideo(h.keys.personal, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message).toContain(field);
    expect(await h.client.credits(h.keys.personal)).toBe(500);
  });

  it('names the duration in the too-many-images message', async () => {
    const response = await h.client.createVideo(h.keys.personal, {
      ...valid(),
      duration: 10,
      image_urls: urls(4),
    });
    expect(response.body.error.message).toMatch(/at most 3 for a 10 s video/);
  });

  it.each([
    ['an array', '[1]'],
    ['a string', '"video"'],
    ['null', 'null'],
  ])('a JSON body that is %s is 400 invalid_json', async (_label, rawBody) => {
    const response = await h.client.call('POST', '/v1/videos', { key: h.keys.personal, rawBody });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('a body that is not valid JSON is 400 invalid_json', async () => {
    const response = await h.client.call('POST', '/v1/videos', {
      key: h.keys.personal,
      rawBody: '{duration: 5}',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it.each([
    [5, 1],
    [10, 1],
    [10, 3],
    [15, 2],
    [15, 4],
  ])('accepts a %i s video from %i images', async (duration, count) => {
    const response = await h.client.createVideo(h.keys.agency, {
      image_urls: Array.from({ length: count }, () => h.missingPhoto),
      duration,
      resolution: '480p',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ object: 'video', status: 'pending', video_url: null });
  });

  it('accepts all six documented aspect ratios', async () => {
    for (const ratio of ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16']) {
      const response = await h.client.createVideo(h.keys.agency, { ...valid(), aspect_ratio: ratio });
      expect(response.status, ratio).toBe(201);
    }
  });

  it('accepts the optional fields: mode, logo_url, music false, note, callback_url, unknown fields', async () => {
    const response = await h.client.createVideo(h.keys.agency, {
      ...valid(),
      mode: 'with_model',
      logo_url: 'http://127.0.0.1/logo.png',
      music: false,
      note: 'Warm light, slow pan.',
      callback_url: 'https://hooks.example.test/v',
      colour_grade: 'teal',
    });
    expect(response.status).toBe(201);
  });
});

describe('video prices', () => {
  let h: DefaultHarness;
  // Real time and an unreachable image: nothing renders and no refund can land during a test.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  // ceil(credits per second (2, 4, 9) x duration x (0.85 product_only | 1 with_model)), worked out by hand.
  const PRICES: Array<[duration: number, resolution: string, mode: string, credits: number]> = [
    [5, '480p', 'product_only', 9], // 8.5
    [5, '480p', 'with_model', 10],
    [5, '720p', 'product_only', 17],
    [5, '720p', 'with_model', 20],
    [5, '1080p', 'product_only', 39], // 38.25
    [5, '1080p', 'with_model', 45],
    [10, '480p', 'product_only', 17],
    [10, '480p', 'with_model', 20],
    [10, '720p', 'product_only', 34], // the description's own check
    [10, '720p', 'with_model', 40], // the description's own check
    [10, '1080p', 'product_only', 77], // 76.5
    [10, '1080p', 'with_model', 90],
    [15, '480p', 'product_only', 26], // 25.5
    [15, '480p', 'with_model', 30],
    [15, '720p', 'product_only', 51],
    [15, '720p', 'with_model', 60],
    [15, '1080p', 'product_only', 115], // 114.75
    [15, '1080p', 'with_model', 135],
  ];

  it.each(PRICES)('%i s %s %s costs %i credits', async (duration, resolution, mode, credits) => {
    const response = await h.client.createVideo(h.keys.agency, {
      image_urls: [h.missingPhoto],
      duration,
      resolution,
      mode,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: 'video',
      status: 'pending',
      video_url: null,
      credits_used: credits,
      credits_remaining: 1000 - credits,
    });
    expect(await h.client.credits(h.keys.agency)).toBe(1000 - credits);
  });

  it('mode defaults to product_only (10 s 720p costs 34)', async () => {
    const response = await h.client.createVideo(h.keys.personal, {
      image_urls: [h.missingPhoto],
      duration: 10,
      resolution: '720p',
    });
    expect(response.body.credits_used).toBe(34);
    expect(await h.client.credits(h.keys.personal)).toBe(466);
  });
});

describe('402 for videos', () => {
  let h: Harness;
  const personal = newKey();
  const agencyA = newKey();
  const agencyB = newKey();
  beforeAll(async () => {
    h = await startHarness({
      timeScale: 1,
      rateLimit: NO_RATE_LIMIT,
      accounts: {
        accounts: [
          { name: 'Small Studio', type: 'personal', credits: 20, keys: [{ key: personal }] },
          {
            name: 'Tiny Agency',
            type: 'agency',
            credits: 45,
            brands: [{ id: 'brand_one', name: 'One' }],
            keys: [{ key: agencyA }, { key: agencyB, brand_id: 'brand_one' }],
          },
        ],
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  it('refuses a video the balance cannot cover and leaves the balance untouched', async () => {
    const refused = await h.client.createVideo(personal, {
      image_urls: [h.missingPhoto],
      duration: 10,
      resolution: '720p',
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(refused.body.error.message).toContain('34');
    expect(await h.client.credits(personal)).toBe(20);

    const exact = await h.client.createVideo(personal, {
      image_urls: [h.missingPhoto],
      duration: 5,
      resolution: '720p',
      mode: 'with_model',
    });
    expect(exact.status).toBe(201);
    expect(exact.body.credits_remaining).toBe(0);
    expect(await h.client.credits(personal)).toBe(0);
  });

  it('one agency key spends the pool the other key then lacks', async () => {
    const spent = await h.client.createVideo(agencyA, {
      image_urls: [h.missingPhoto],
      duration: 5,
      resolution: '1080p',
    });
    expect(spent.body.credits_used).toBe(39);
    expect(await h.client.credits(agencyB)).toBe(6);
    const refused = await h.client.createVideo(agencyB, {
      image_urls: [h.missingPhoto],
      duration: 5,
      resolution: '480p',
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect(await h.client.credits(agencyA)).toBe(6);
  });
});

describe('video lifecycle and the MP4', () => {
  let h: DefaultHarness;
  let scratch: string;
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 0.002, rateLimit: NO_RATE_LIMIT });
    scratch = await mkdtemp(join(tmpdir(), 'adbatch-video-test-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(scratch, { recursive: true, force: true });
  });
  afterEach(() => expect(h.errors).toEqual([]));

  async function probe(
    bytes: Buffer,
  ): Promise<{ codec: string; width: number; height: number; duration: number }> {
    const file = join(scratch, `${Math.random().toString(36).slice(2)}.mp4`);
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)(FFPROBE, [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height:format=duration',
      '-of',
      'json',
      file,
    ]);
    const parsed = JSON.parse(stdout) as {
      streams: Array<{ codec_name: string; width: number; height: number }>;
      format: { duration: string };
    };
    const stream = parsed.streams[0]!;
    return {
      codec: stream.codec_name,
      width: stream.width,
      height: stream.height,
      duration: Number(parsed.format.duration),
    };
  }

  it.each([
    [5, '480p', '16:9', 480],
    [5, '720p', '9:16', 720],
    [10, '1080p', '1:1', 1080],
  ])(
    'a %i s %s %s video goes pending -> generating -> completed and serves a real MP4',
    async (duration, resolution, ratio, shortSide) => {
      const created = await h.client.createVideo(h.keys.personal, {
        image_urls: [h.photo('capGray')],
        duration,
        resolution,
        aspect_ratio: ratio,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'pending', video_url: null });

      const { body, seen, polls } = await h.client.waitForStatus<VideoBody>(
        'videos',
        created.body.id,
        h.keys.personal,
        {
          intervalMs: 5,
          timeoutMs: 40_000,
          initial: created.body.status,
        },
      );
      expect(body.status).toBe('completed');
      expect(isSubsequence(seen, VIDEO_ORDER)).toBe(true);
      expect(seen).toContain('generating');
      for (const poll of polls) {
        if (poll.status !== 'completed') expect(poll.video_url).toBeNull();
        expect(poll.credits_remaining).toBe(created.body.credits_remaining);
      }
      expect(body.video_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/.+\.mp4$/);

      const video = await fetchBytes(body.video_url!);
      expect(video.status).toBe(200);
      expect(video.contentType).toBe('video/mp4');
      expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

      if (existsSync(FFPROBE)) {
        const info = await probe(video.bytes);
        expect(info.codec).toBe('h264');
        expect(Math.abs(info.duration - duration)).toBeLessThanOrEqual(0.3);
        expect(Math.min(info.width, info.height)).toBe(shortSide);
        const [w, hgt] = ratio.split(':').map(Number) as [number, number];
        expect(info.width > info.height).toBe(w > hgt);
      }
    },
  );

  it.skipIf(!existsSync(FFPROBE))(
    'honours music: a sound track by default (the contract says true), none when it is false',
    async () => {
      const streamsOf = async (music: boolean | undefined) => {
        const created = await h.client.createVideo(h.keys.personal, {
          image_urls: [h.photo('capGray')],
          duration: 5,
          resolution: '480p',
          ...(music === undefined ? {} : { music }),
        });
        const { body } = await h.client.waitForStatus<VideoBody>('videos', created.body.id, h.keys.personal, {
          timeoutMs: 40_000,
        });
        const file = join(scratch, `music-${String(music)}.mp4`);
        await writeFile(file, (await fetchBytes(body.video_url!)).bytes);
        const { stdout } = await promisify(execFile)(FFPROBE, [
          ...['-v', 'error', '-show_entries', 'stream=codec_type,r_frame_rate', '-of', 'csv=p=0', file],
        ]);
        return stdout.trim().split('\n');
      };
      expect(await streamsOf(undefined)).toEqual(['video,24/1', 'audio,0/0']);
      expect(await streamsOf(false)).toEqual(['video,24/1']);
    },
  );

  it('chooses the aspect ratio from the images when it is omitted (a landscape photo gives a landscape video)', async () => {
    const created = await h.client.createVideo(h.keys.agency, {
      image_urls: [h.photo('hoodieWide')],
      duration: 5,
      resolution: '480p',
    });
    expect(created.status).toBe(201);
    const { body } = await h.client.waitForStatus<VideoBody>('videos', created.body.id, h.keys.agency, {
      timeoutMs: 40_000,
    });
    expect(body.status).toBe('completed');
    const video = await fetchBytes(body.video_url!);
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    if (existsSync(FFPROBE)) {
      const info = await probe(video.bytes);
      expect(info.height).toBe(480);
      expect(info.width).toBeGreaterThan(info.height);
    }
  });
});
