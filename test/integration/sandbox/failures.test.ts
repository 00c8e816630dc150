import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobBody, ShootBody, UsageBody, VideoBody } from '../../support/sandbox-client.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../support/static-server.ts';

// "Failed or partial generations automatically refund the credits": forced failures, unreachable and
// non-image inputs, and --failure-rate 1. A failed job reports `status: failed` plus `error: {code, message}`.

const NO_RATE_LIMIT = '100000/60s';

describe('POST /_sandbox/jobs/{id}/fail', () => {
  let h: DefaultHarness;
  // Real time: the job is still running when the test fails it.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 1, rateLimit: NO_RATE_LIMIT });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  it('fails a running shoot now and refunds it; a second fail is 409', async () => {
    // An unreachable photo: nothing renders (a render in flight at close would outlive the sandbox), and
    // at real time its input failure would only land seconds later.
    const created = await h.client.createShoot(h.keys.personal, {
      product_image_urls: [h.missingPhoto],
      style: 'classic',
      shots: 1,
      quality: 'pro',
    });
    expect(created.status).toBe(201);
    expect(await h.client.credits(h.keys.personal)).toBe(498);

    const failed = await h.client.failJob(created.body.id);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      id: created.body.id,
      status: 'failed',
      error: { code: 'generation_failed' },
    });

    const poll = await h.client.call<ShootBody>('GET', `/v1/shoots/${created.body.id}`, {
      key: h.keys.personal,
    });
    expect(poll.body).toMatchObject({ status: 'failed', images: [], credits_used: 2 });
    expect(poll.body.error?.message).toEqual(expect.any(String));
    expect(await h.client.credits(h.keys.personal)).toBe(500);

    const again = await h.client.failJob(created.body.id);
    expect(again.status).toBe(409);
    expect(await h.client.credits(h.keys.personal)).toBe(500);
  });

  it('fails a running video now and refunds the pool', async () => {
    const created = await h.client.createVideo(h.keys.agencyPinned, {
      image_urls: [h.missingPhoto],
      duration: 15,
      resolution: '1080p',
      mode: 'with_model',
    });
    expect(created.body.credits_used).toBe(135);
    expect(await h.client.credits(h.keys.agency)).toBe(865);

    const failed = await h.client.failJob(created.body.id);
    expect(failed.status).toBe(200);
    const poll = await h.client.call<VideoBody>('GET', `/v1/videos/${created.body.id}`, {
      key: h.keys.agency,
    });
    expect(poll.body).toMatchObject({
      status: 'failed',
      video_url: null,
      error: { code: 'generation_failed' },
    });
    expect(await h.client.credits(h.keys.agency)).toBe(1000);
  });

  it('an unknown job is 404', async () => {
    const response = await h.client.failJob('shoot_nope');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('input problems', () => {
  let h: DefaultHarness;
  let textUrl: string;
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 0.002, rateLimit: NO_RATE_LIMIT });
    textUrl = h.photos.addFile('notes/product.png', {
      body: 'This is a text file pretending to be a photo.\n',
      contentType: 'text/plain',
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.client.reset());

  async function expectFailedAndRefunded(
    kind: 'shoots' | 'videos',
    body: Record<string, unknown>,
    code: string,
    messagePart: string,
  ) {
    const key = h.keys.personal;
    const created = await h.client.call<JobBody>('POST', `/v1/${kind}`, { key, body });
    expect(created.status, created.text).toBe(201);
    const { body: last, seen } = await h.client.waitForStatus<JobBody>(kind, created.body.id, key, {
      initial: created.body.status,
    });
    expect(last.status).toBe('failed');
    expect(seen).not.toContain('completed');
    expect(last.error?.code).toBe(code);
    expect(last.error?.message).toContain(messagePart);
    expect(await h.client.credits(key)).toBe(500);
    const usage = await h.client.call<UsageBody>('GET', '/v1/usage', { key });
    expect(usage.body.totals).toEqual({ images: 0, videos: 0, credits: 0 });
  }

  it('a product URL answering 404 fails the shoot with input_unreachable, refunded', async () => {
    await expectFailedAndRefunded(
      'shoots',
      { product_image_urls: [h.photo('hat'), h.missingPhoto], style: 'classic', shots: 4 },
      'input_unreachable',
      'product_image_urls[1]',
    );
  });

  it('a product URL nobody answers (connection refused) fails with input_unreachable, refunded', async () => {
    await expectFailedAndRefunded(
      'shoots',
      { product_image_urls: ['http://127.0.0.1:1/photo.png'], style: 'classic', shots: 1 },
      'input_unreachable',
      'product_image_urls[0]',
    );
  });

  it('a product photo cut off mid-body is fetched again, and the shoot completes', async () => {
    const photo = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.hat));
    let requests = 0;
    const flaky = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': photo.length });
      if (requests === 1) res.write(photo.subarray(0, photo.length / 2), () => res.destroy());
      else res.end(photo);
    });
    await new Promise<void>((done) => flaky.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/hat.png`;
      const key = h.keys.personal;
      const created = await h.client.createShoot(key, {
        product_image_urls: [url],
        style: 'classic',
        shots: 1,
      });
      expect(created.status).toBe(201);
      const { body } = await h.client.waitForStatus<JobBody>('shoots', created.body.id, key, {
        initial: created.body.status,
      });
      expect(body.status).toBe('completed');
      expect(requests).toBe(2);
    } finally {
      flaky.closeAllConnections();
      await new Promise((done) => flaky.close(done));
    }
  });

  it('an unreachable model_url fails a with_model shoot with input_unreachable, refunded', async () => {
    await expectFailedAndRefunded(
      'shoots',
      {
        product_image_urls: [h.photo('hat')],
        style: 'influencer',
        mode: 'with_model',
        model_url: h.missingPhoto,
        shots: 1,
      },
      'input_unreachable',
      'model_url',
    );
  });

  it('a product URL serving text fails the shoot with invalid_input, refunded', async () => {
    await expectFailedAndRefunded(
      'shoots',
      { product_image_urls: [textUrl], style: 'classic', shots: 1 },
      'invalid_input',
      '',
    );
  });

  it('an unreachable video image fails the video with input_unreachable, refunded', async () => {
    await expectFailedAndRefunded(
      'videos',
      { image_urls: [h.missingPhoto], duration: 10, resolution: '720p' },
      'input_unreachable',
      'image_urls[0]',
    );
  });

  it('an unreachable logo_url fails the video with input_unreachable, refunded', async () => {
    await expectFailedAndRefunded(
      'videos',
      { image_urls: [h.photo('hat')], duration: 5, resolution: '480p', logo_url: h.missingPhoto },
      'input_unreachable',
      'logo_url',
    );
  });

  it('a logo_url serving text fails the video with invalid_input, refunded', async () => {
    await expectFailedAndRefunded(
      'videos',
      { image_urls: [h.photo('hat')], duration: 5, resolution: '480p', logo_url: textUrl },
      'invalid_input',
      'logo_url',
    );
  });

  it('a video image serving text fails with invalid_input, refunded', async () => {
    await expectFailedAndRefunded(
      'videos',
      { image_urls: [textUrl], duration: 5, resolution: '480p' },
      'invalid_input',
      '',
    );
  });
});

describe('failureRate 1', () => {
  let h: DefaultHarness;
  // 0.01: every job lives at least 20 ms (time to read the balance it reserved) and fails within about 1.3 s.
  beforeAll(async () => {
    h = await startDefaultHarness({ timeScale: 0.01, rateLimit: NO_RATE_LIMIT, failureRate: 1 });
  });
  afterAll(() => h.close());

  const jobs: Array<
    [label: string, kind: 'shoots' | 'videos', body: () => Record<string, unknown>, price: number]
  > = [
    [
      'a 4-shot standard shoot',
      'shoots',
      () => ({ product_image_urls: [h.photo()], style: 'classic', shots: 4 }),
      4,
    ],
    [
      'a pro luxury shoot',
      'shoots',
      () => ({ product_image_urls: [h.photo()], style: 'luxury', quality: 'pro' }),
      8,
    ],
    ['a 5 s 480p video', 'videos', () => ({ image_urls: [h.photo()], duration: 5, resolution: '480p' }), 9],
    [
      'a 5 s 720p with_model video',
      'videos',
      () => ({ image_urls: [h.photo()], duration: 5, resolution: '720p', mode: 'with_model' }),
      20,
    ],
  ];

  it.each(jobs)('fails %s with generation_failed and refunds it', async (_label, kind, body, price) => {
    const { agency, agencyPinned } = h.keys;
    const created = await h.client.call<JobBody>('POST', `/v1/${kind}`, { key: agencyPinned, body: body() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      credits_used: price,
      credits_remaining: 1000 - price,
    });
    expect(await h.client.credits(agency)).toBe(1000 - price);

    const { body: last, seen } = await h.client.waitForStatus(kind, created.body.id, agencyPinned, {
      intervalMs: 20,
    });
    expect(last.status).toBe('failed');
    expect(seen).not.toContain('completed');
    expect(last.error?.code).toBe('generation_failed');
    expect(await h.client.credits(agency)).toBe(1000);
    const usage = await h.client.call<UsageBody>('GET', '/v1/usage', { key: agency });
    expect(usage.body.totals).toEqual({ images: 0, videos: 0, credits: 0 });
  });
});
