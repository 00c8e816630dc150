import { describe, expect, it } from 'vitest';
import { advance, failPlan, planShoot, planVideo, type Timing } from '../../../src-main/sandbox/lifecycle.ts';
import type { ShootJob } from '../../../src-main/sandbox/state.ts';

const steady: Timing = { timeScale: 1, failureRate: 0, random: () => 0.5 };

function shootJob(plan: ShootJob['plan'], failure: ShootJob['failure'] = null): ShootJob {
  return {
    id: 'shoot_1',
    kind: 'shoot',
    accountId: 'acct_1',
    brandId: null,
    createdAt: 0,
    credits: 4,
    creditsRemaining: 96,
    status: 'pending',
    history: [{ status: 'pending', at: 0 }],
    plan,
    failure,
    renderedAt: null,
    assetToken: 'r_1',
    refunded: false,
    request: {
      productImageUrls: ['http://127.0.0.1/a.png'],
      style: 'classic',
      mode: 'product_only',
      modelUrl: null,
      requestedShots: 4,
      aspectRatio: '1:1',
      quality: 'standard',
      backgroundColor: null,
    },
    shots: 4,
    shotsAdjusted: false,
  };
}

describe('job plans', () => {
  it('plans a standard set of 4 shots to finish in 20-50 s', () => {
    const { plan, failure } = planShoot(0, 4, 'standard', steady);
    expect(plan.map((step) => step.status)).toEqual(['pending', 'analyzing', 'generating', 'completed']);
    expect(plan.at(-1)!.at / 1000).toBeGreaterThanOrEqual(20);
    expect(plan.at(-1)!.at / 1000).toBeLessThanOrEqual(50);
    expect(failure).toBeNull();
  });

  it('takes several minutes for a video, longer at higher resolution', () => {
    const short = planVideo(0, 5, '480p', steady).plan.at(-1)!.at;
    const long = planVideo(0, 15, '1080p', steady).plan.at(-1)!.at;
    expect(short / 60_000).toBeGreaterThan(1.5);
    expect(long).toBeGreaterThan(short * 2);
  });

  it('scales every duration by the time scale', () => {
    const real = planShoot(0, 4, 'pro', steady).plan.at(-1)!.at;
    const fast = planShoot(0, 4, 'pro', { ...steady, timeScale: 0.01 }).plan.at(-1)!.at;
    expect(fast).toBeCloseTo(real / 100, 5);
  });

  it('plans a failure while generating when the failure rate says so', () => {
    const { plan, failure } = planShoot(0, 4, 'standard', { ...steady, failureRate: 1 });
    expect(plan.at(-1)!.status).toBe('failed');
    expect(plan.at(-1)!.at).toBeGreaterThanOrEqual(plan.find((step) => step.status === 'generating')!.at);
    expect(failure?.code).toBe('generation_failed');
  });
});

describe('advance', () => {
  const plan = [
    { status: 'pending', at: 0 },
    { status: 'analyzing', at: 100 },
    { status: 'generating', at: 200 },
    { status: 'completed', at: 300 },
  ];

  it('applies the steps that came due, in order, with their own times', () => {
    const job = shootJob(plan);
    job.renderedAt = 50;
    expect(advance(job, 250)).toEqual({ changed: true, failedNow: false });
    expect(job.status).toBe('generating');
    advance(job, 10_000);
    expect(job.history).toEqual(plan);
  });

  it('holds a job in generating until its results are rendered, then completes it at that time', () => {
    const job = shootJob(plan);
    advance(job, 1000);
    expect(job.status).toBe('generating');
    job.renderedAt = 1200;
    advance(job, 1500);
    expect(job.status).toBe('completed');
    expect(job.history.at(-1)).toEqual({ status: 'completed', at: 1200 });
  });

  it('reroutes a job to failed and reports it once', () => {
    const job = shootJob(plan);
    advance(job, 150);
    failPlan(job, { code: 'input_unreachable', message: 'gone' }, 180);
    expect(advance(job, 190)).toEqual({ changed: true, failedNow: true });
    expect(job.history.map((step) => step.status)).toEqual(['pending', 'analyzing', 'failed']);
    expect(advance(job, 1000)).toEqual({ changed: false, failedNow: false });
  });
});
