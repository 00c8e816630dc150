import { describe, expect, it } from 'vitest';
import {
  brandListSchema,
  creditBalanceSchema,
  healthSchema,
  modelListSchema,
  phaseOf,
  shootSchema,
  usageReportSchema,
  videoSchema,
} from '../../../../src-main/core/api/schemas.ts';

// The service may add fields, leave values out, send nulls and grow new statuses; the client must read
// all of that without failing, and fail only when what the engine needs (an id, a status) is missing.

const documentedShoot = {
  id: 'sh_1',
  object: 'shoot',
  status: 'completed',
  shots: 4,
  credits_used: 4,
  credits_remaining: 496,
  images: [
    { url: 'https://cdn/x/shot-1.jpg', thumbnail_url: 'https://cdn/x/thumb-1.jpg', status: 'completed' },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('shootSchema', () => {
  it('reads a documented shoot into the domain shape', () => {
    expect(shootSchema.parse(documentedShoot)).toEqual({
      id: 'sh_1',
      status: 'completed',
      phase: 'completed',
      shots: 4,
      shotsAdjusted: false,
      creditsUsed: 4,
      creditsRemaining: 496,
      images: [
        { url: 'https://cdn/x/shot-1.jpg', thumbnailUrl: 'https://cdn/x/thumb-1.jpg', status: 'completed' },
      ],
      createdAt: '2026-01-01T00:00:00.000Z',
      failure: null,
    });
  });

  it('ignores extra fields, at the top and inside image entries', () => {
    const shoot = shootSchema.parse({
      ...documentedShoot,
      future_field: { nested: true },
      images: [{ url: 'u', thumbnail_url: null, status: null, width: 1024 }],
    });
    expect(shoot.images).toEqual([{ url: 'u', thumbnailUrl: null, status: null }]);
    expect(shoot).not.toHaveProperty('future_field');
  });

  it('accepts null or absence in every optional field', () => {
    const withNulls = shootSchema.parse({
      id: 'sh_2',
      status: 'pending',
      shots: null,
      shots_adjusted: null,
      credits_used: null,
      credits_remaining: null,
      images: null,
      created_at: null,
      error: null,
    });
    const bare = shootSchema.parse({ id: 'sh_2', status: 'pending' });
    for (const shoot of [withNulls, bare]) {
      expect(shoot).toEqual({
        id: 'sh_2',
        status: 'pending',
        phase: 'running',
        shots: null,
        shotsAdjusted: false,
        creditsUsed: null,
        creditsRemaining: null,
        images: [],
        createdAt: null,
        failure: null,
      });
    }
  });

  it('reads a missing images array as no images', () => {
    const { images: _images, ...withoutImages } = documentedShoot;
    expect(shootSchema.parse({ ...withoutImages, status: 'generating' }).images).toEqual([]);
  });

  it('maps every status that is neither completed nor failed to running, known or not', () => {
    for (const status of ['pending', 'analyzing', 'analyzed', 'generating', 'queued', 'upscaling', '']) {
      const shoot = shootSchema.parse({ id: 'sh_3', status });
      expect(shoot.phase, status).toBe('running');
      expect(shoot.status).toBe(status);
    }
  });

  it('maps failed to failed, with the failure reason when the service gives one', () => {
    const withReason = shootSchema.parse({
      id: 'sh_4',
      status: 'failed',
      error: { code: 'input_unreachable', message: 'The product photo could not be fetched.', extra: 1 },
    });
    expect(withReason.phase).toBe('failed');
    expect(withReason.failure).toEqual({
      code: 'input_unreachable',
      message: 'The product photo could not be fetched.',
    });
    expect(shootSchema.parse({ id: 'sh_4', status: 'failed' }).failure).toEqual({
      code: null,
      message: null,
    });
  });

  it('keeps shots_adjusted only when it is literally true', () => {
    expect(shootSchema.parse({ ...documentedShoot, shots_adjusted: true }).shotsAdjusted).toBe(true);
    expect(shootSchema.parse({ ...documentedShoot, shots_adjusted: 'yes' }).shotsAdjusted).toBe(false);
  });

  it('reads numeric strings as numbers and unreadable decorative values as null', () => {
    const shoot = shootSchema.parse({ ...documentedShoot, credits_used: '8', shots: 'four', created_at: 12 });
    expect(shoot.creditsUsed).toBe(8);
    expect(shoot.shots).toBeNull();
    expect(shoot.createdAt).toBeNull();
  });

  it('drops unreadable image entries and keeps the others', () => {
    const shoot = shootSchema.parse({
      ...documentedShoot,
      images: [null, 42, 'https://cdn/x/shot-2.jpg', {}],
    });
    expect(shoot.images).toEqual([
      { url: 'https://cdn/x/shot-2.jpg', thumbnailUrl: null, status: null },
      { url: null, thumbnailUrl: null, status: null },
    ]);
  });

  it('fails when what the engine cannot work without is missing', () => {
    expect(shootSchema.safeParse({ status: 'pending' }).success).toBe(false);
    expect(shootSchema.safeParse({ id: 'sh_5' }).success).toBe(false);
    expect(shootSchema.safeParse('<html>').success).toBe(false);
  });
});

describe('videoSchema', () => {
  it('reads a pending video with video_url null and an unknown later status as running', () => {
    const pending = videoSchema.parse({ id: 'vid_1', object: 'video', status: 'pending', video_url: null });
    expect(pending).toMatchObject({ phase: 'running', videoUrl: null, creditsUsed: null, failure: null });
    expect(videoSchema.parse({ id: 'vid_1', status: 'rendering' }).phase).toBe('running');
  });

  it('reads a completed video and a failed one', () => {
    expect(videoSchema.parse({ id: 'v', status: 'completed', video_url: 'https://cdn/v.mp4' })).toMatchObject(
      {
        phase: 'completed',
        videoUrl: 'https://cdn/v.mp4',
      },
    );
    expect(videoSchema.parse({ id: 'v', status: 'failed', error: 'Out of capacity' })).toMatchObject({
      phase: 'failed',
      failure: { code: null, message: 'Out of capacity' },
    });
  });
});

describe('phaseOf', () => {
  it('compares case-insensitively', () => {
    expect(phaseOf('Completed')).toBe('completed');
    expect(phaseOf(' FAILED ')).toBe('failed');
    expect(phaseOf('completed_with_warnings')).toBe('running');
  });
});

describe('creditBalanceSchema', () => {
  it('tells a pool from a personal balance, whatever the personal value is', () => {
    expect(creditBalanceSchema.parse({ credits: 1000, balance: 'pool', tenant: 'Northwind Agency' })).toEqual(
      {
        credits: 1000,
        pool: true,
        tenant: 'Northwind Agency',
      },
    );
    expect(creditBalanceSchema.parse({ credits: 500, balance: 'account', tenant: null })).toEqual({
      credits: 500,
      pool: false,
      tenant: null,
    });
    expect(creditBalanceSchema.parse({ credits: 7 })).toEqual({ credits: 7, pool: false, tenant: null });
  });

  it('needs the credits', () => {
    expect(creditBalanceSchema.safeParse({ balance: 'pool' }).success).toBe(false);
  });
});

describe('usageReportSchema', () => {
  it('reads period.to "now" as an open period (null)', () => {
    const report = usageReportSchema.parse({
      object: 'usage_report',
      period: { from: '2026-01-01T00:00:00.000Z', to: 'now' },
      data: [
        {
          brand_id: 'brand_acme',
          brand_name: 'Acme',
          images: 4,
          image_credits: 4,
          videos: 1,
          video_credits: 34,
          share: 0.5,
        },
      ],
      totals: { images: 4, videos: 1, credits: 38 },
    });
    expect(report).toEqual({
      period: { from: '2026-01-01T00:00:00.000Z', to: null },
      rows: [
        {
          brandId: 'brand_acme',
          brandName: 'Acme',
          images: 4,
          imageCredits: 4,
          videos: 1,
          videoCredits: 34,
        },
      ],
      totals: { images: 4, videos: 1, credits: 38 },
    });
  });

  it('keeps a closed period end and survives a report with nothing but its object', () => {
    expect(usageReportSchema.parse({ period: { from: 'a', to: '2026-01-31T00:00:00Z' } }).period.to).toBe(
      '2026-01-31T00:00:00Z',
    );
    expect(usageReportSchema.parse({ object: 'usage_report' })).toEqual({
      period: { from: null, to: null },
      rows: [],
      totals: { images: null, videos: null, credits: null },
    });
    expect(usageReportSchema.parse({ period: null, data: null, totals: null }).rows).toEqual([]);
  });
});

describe('lists', () => {
  it('reads brands from the documented envelope or a bare array, defaulting active to true', () => {
    const envelope = { object: 'list', data: [{ id: 'b1', name: 'Acme', active: false, created_at: null }] };
    expect(brandListSchema.parse(envelope)).toEqual([
      { id: 'b1', name: 'Acme', active: false, createdAt: null },
    ]);
    expect(brandListSchema.parse([{ id: 'b2' }])).toEqual([
      { id: 'b2', name: null, active: true, createdAt: null },
    ]);
  });

  it('drops entries without an id instead of failing the whole list', () => {
    const models = modelListSchema.parse({
      object: 'list',
      data: [
        { name: 'nameless' },
        { id: 'model_ava', name: 'Ava', image_url: 'u', is_preset: true, tags: ['a', 3] },
      ],
      has_more: false,
    });
    expect(models).toEqual([{ id: 'model_ava', name: 'Ava', imageUrl: 'u', isPreset: true, tags: ['a'] }]);
  });

  it('fails a list answer that is not a list at all', () => {
    expect(brandListSchema.safeParse({ object: 'list' }).success).toBe(false);
  });
});

describe('healthSchema', () => {
  it('accepts any body, picking known fields when present', () => {
    expect(healthSchema.parse({ status: 'ok', version: '1.0.0', sandbox: true })).toEqual({
      ok: true,
      status: 'ok',
      version: '1.0.0',
      sandbox: true,
    });
    expect(healthSchema.parse(undefined)).toEqual({ ok: true, status: null, version: null, sandbox: false });
  });
});
