import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError } from './http.ts';
import { advance, analysisEnd, failPlan, planShoot, planVideo, TERMINAL, type Timing } from './lifecycle.ts';
import type { VideoRenderer } from './render/video.ts';
import { InputError, renderJob } from './results.ts';
import { API_KEY_PATTERN, effectiveShots, PLAN_BRAND_QUOTA, shootPrice, videoPrice } from './rules.ts';
import {
  type Account,
  type ApiKey,
  type Brand,
  type Job,
  newId,
  type SandboxStore,
  type ShootJob,
  type VideoJob,
} from './state.ts';
import { validateBrandName, validateShoot, validateVideo } from './validation.ts';
import type { WorkQueue } from './work-queue.ts';

export interface Caller {
  key: ApiKey;
  account: Account;
}

export interface ServiceOptions {
  timing: Timing;
  now: () => number;
  assetsDir: string;
  videoRenderer: VideoRenderer;
  renders: WorkQueue;
  onError: (message: string, error: unknown) => void;
}

export interface UsageQuery {
  from: number;
  to: number | null;
  brandId: string | null;
}

export interface UsageRow {
  brandId: string;
  brandName: string;
  images: number;
  imageCredits: number;
  videos: number;
  videoCredits: number;
}

/** Jobs of unpinned agency keys are attributed to no brand; usage lists them under this pseudo-brand. */
export const UNASSIGNED_BRAND = { id: 'unassigned', name: 'Unassigned' };

/** The service's behaviour, independent of HTTP: every method takes the authenticated caller. */
export class SandboxService {
  private readonly shutdown = new AbortController();

  constructor(
    private readonly store: SandboxStore,
    private readonly options: ServiceOptions,
  ) {}

  private get data() {
    return this.store.data;
  }

  authenticate(presented: string | null): Caller {
    if (!presented)
      throw new HttpError(
        401,
        'unauthorized',
        'An API key is required (Authorization: Bearer or x-api-key).',
      );
    if (!API_KEY_PATTERN.test(presented)) {
      throw new HttpError(
        401,
        'unauthorized',
        'The API key is malformed: a prefix, "_", then 64 hexadecimal characters.',
      );
    }
    const key = this.data.keys.find((candidate) => candidate.key === presented);
    const account = key && this.data.accounts.find((candidate) => candidate.id === key.accountId);
    if (!key || !account)
      throw new HttpError(401, 'unauthorized', 'The API key is not valid or has been revoked.');
    return { key, account };
  }

  /** Applies every status change that has come due, refunding the jobs that failed. */
  advanceAll(): void {
    const now = this.options.now();
    let changed = false;
    for (const job of this.data.jobs) {
      if (TERMINAL.has(job.status)) continue;
      const result = advance(job, now);
      if (result.failedNow) this.refund(job, now);
      changed ||= result.changed;
    }
    if (changed) this.store.changed();
  }

  createShoot(caller: Caller, body: unknown): ShootJob {
    const request = validateShoot(body);
    const { shots, adjusted } = effectiveShots(request.style, request.requestedShots);
    const price = shootPrice(shots, request.quality);
    const now = this.options.now();
    const { plan, failure } = planShoot(now, shots, request.quality, this.options.timing);
    const job: ShootJob = {
      ...this.newJob(caller, 'shoot_', price, now, plan, failure),
      kind: 'shoot',
      request,
      shots,
      shotsAdjusted: adjusted,
    };
    return this.admit(caller, job);
  }

  createVideo(caller: Caller, body: unknown): VideoJob {
    const request = validateVideo(body);
    const price = videoPrice(request.duration, request.resolution, request.mode);
    const now = this.options.now();
    const { plan, failure } = planVideo(now, request.duration, request.resolution, this.options.timing);
    const job: VideoJob = {
      ...this.newJob(caller, 'video_', price, now, plan, failure),
      kind: 'video',
      request,
    };
    return this.admit(caller, job);
  }

  getJob<K extends Job['kind']>(caller: Caller, kind: K, id: string): Extract<Job, { kind: K }> {
    this.advanceAll();
    const job = this.data.jobs.find((candidate) => candidate.id === id);
    if (!job || job.kind !== kind || job.accountId !== caller.account.id) {
      throw new HttpError(404, 'not_found', `No ${kind} with id ${id}.`);
    }
    return job as Extract<Job, { kind: K }>;
  }

  balance(caller: Caller): Account {
    this.advanceAll();
    return caller.account;
  }

  /** Per-brand rows for agency keys (none for personal keys), and totals over what the key may see. */
  usage(caller: Caller, query: UsageQuery): { rows: UsageRow[]; totals: UsageRow } {
    this.advanceAll();
    const { account, key } = caller;
    if (account.type === 'personal' && query.brandId) {
      throw new HttpError(
        400,
        'invalid_field',
        'brand_id filters usage by client brand and is for agency keys only.',
      );
    }
    if (query.brandId && !this.brandsOf(account).some((brand) => brand.id === query.brandId)) {
      throw new HttpError(
        400,
        'invalid_field',
        `brand_id ${query.brandId} is not a client brand of this agency.`,
      );
    }
    const end = query.to ?? Number.POSITIVE_INFINITY;
    const jobs = this.data.jobs.filter(
      (job) => job.accountId === account.id && job.createdAt >= query.from && job.createdAt <= end,
    );
    if (account.type === 'personal')
      return { rows: [], totals: summarise(jobs, { id: account.id, name: account.name }) };
    const onlyBrand = key.brandId ?? query.brandId;
    const rows = this.brandsOf(account)
      .filter((brand) => !onlyBrand || brand.id === onlyBrand)
      .map((brand) =>
        summarise(
          jobs.filter((job) => job.brandId === brand.id),
          brand,
        ),
      );
    const unassigned = jobs.filter((job) => job.brandId === null);
    if (!onlyBrand && unassigned.length > 0) rows.push(summarise(unassigned, UNASSIGNED_BRAND));
    const totals = summarise([], { id: account.id, name: account.name });
    for (const row of rows) {
      totals.images += row.images;
      totals.imageCredits += row.imageCredits;
      totals.videos += row.videos;
      totals.videoCredits += row.videoCredits;
    }
    return { rows, totals };
  }

  listBrands(caller: Caller): Brand[] {
    this.requireAgency(caller);
    const brands = this.brandsOf(caller.account);
    return caller.key.brandId ? brands.filter((brand) => brand.id === caller.key.brandId) : brands;
  }

  createBrand(caller: Caller, body: unknown): Brand {
    this.requireAgency(caller);
    if (caller.key.brandId) {
      throw new HttpError(403, 'forbidden', 'A key pinned to a client brand cannot create brands.');
    }
    const name = validateBrandName(body);
    const brands = this.brandsOf(caller.account);
    if (brands.some((brand) => brand.name.toLowerCase() === name.toLowerCase())) {
      throw new HttpError(409, 'brand_exists', `A client brand named "${name}" already exists.`);
    }
    const plan = caller.account.plan ?? 'partner';
    const quota = PLAN_BRAND_QUOTA[plan];
    if (brands.filter((brand) => brand.active).length >= quota) {
      throw new HttpError(
        403,
        'brand_quota_exceeded',
        `The ${plan.replace('_', ' ')} plan allows ${quota} active client brands; this agency has reached it.`,
      );
    }
    const brand: Brand = {
      id: newId('brand'),
      accountId: caller.account.id,
      name,
      active: true,
      createdAt: new Date(this.options.now()).toISOString(),
    };
    this.data.brands.push(brand);
    this.store.changed();
    return brand;
  }

  /** Test control: fails a running job now, refunding it. */
  forceFail(id: string): Job {
    this.advanceAll();
    const job = this.data.jobs.find((candidate) => candidate.id === id);
    if (!job) throw new HttpError(404, 'not_found', `No job with id ${id}.`);
    if (TERMINAL.has(job.status))
      throw new HttpError(409, 'conflict', `Job ${id} has already ended (${job.status}).`);
    const now = this.options.now();
    failPlan(
      job,
      { code: 'generation_failed', message: 'The generation failed; the credits were refunded.' },
      now,
    );
    this.advanceAll();
    return job;
  }

  /** Starts the renders of every job still waiting for its results (after a restart). */
  resumeRenders(): void {
    for (const job of this.data.jobs) {
      if (!TERMINAL.has(job.status) && job.renderedAt === null && !job.failure) this.startRender(job);
    }
  }

  assetDir(token: string): string {
    return join(this.options.assetsDir, token);
  }

  /** Moves a job's results to a new address (its files with them): the old one leads nowhere from now on. */
  renewAssetToken(job: Job): void {
    const old = this.assetDir(job.assetToken);
    job.assetToken = newId('r');
    renameSync(old, this.assetDir(job.assetToken));
    this.store.changed();
  }

  findByAssetToken(token: string): Job | undefined {
    return this.data.jobs.find((job) => job.assetToken === token);
  }

  private requireAgency(caller: Caller): void {
    if (caller.account.type !== 'agency') {
      throw new HttpError(
        403,
        'agency_only',
        'Client brands are available to agency keys only; this is a personal key.',
      );
    }
  }

  private brandsOf(account: Account): Brand[] {
    return this.data.brands.filter((brand) => brand.accountId === account.id);
  }

  private newJob(
    caller: Caller,
    prefix: string,
    credits: number,
    now: number,
    plan: Job['plan'],
    failure: Job['failure'],
  ) {
    return {
      id: newId(prefix.slice(0, -1)),
      accountId: caller.account.id,
      brandId: caller.account.type === 'agency' ? caller.key.brandId : null,
      createdAt: now,
      credits,
      creditsRemaining: 0,
      status: 'pending',
      history: [{ status: 'pending', at: now }],
      plan,
      failure,
      renderedAt: null,
      assetToken: newId('r'),
      refunded: false,
    };
  }

  /** Reserves the credits and records the job, or refuses with 402 leaving the balance untouched. */
  private admit<J extends Job>(caller: Caller, job: J): J {
    this.advanceAll();
    const { account } = caller;
    if (account.credits < job.credits) {
      throw new HttpError(
        402,
        'insufficient_credits',
        `This ${job.kind} costs ${job.credits} credits; the ${account.type === 'agency' ? 'pool' : 'balance'} holds ${account.credits}.`,
      );
    }
    account.credits -= job.credits;
    job.creditsRemaining = account.credits;
    this.data.jobs.push(job);
    this.data.ledger.push(this.entry(job, 'charge', job.createdAt));
    this.store.changed();
    if (!job.failure) this.startRender(job);
    return job;
  }

  private refund(job: Job, at: number): void {
    if (job.refunded) return;
    const account = this.data.accounts.find((candidate) => candidate.id === job.accountId)!;
    account.credits += job.credits;
    job.refunded = true;
    this.data.ledger.push(this.entry(job, 'refund', at));
  }

  private entry(job: Job, type: 'charge' | 'refund', at: number) {
    return {
      at,
      accountId: job.accountId,
      brandId: job.brandId,
      jobId: job.id,
      jobKind: job.kind,
      type,
      credits: job.credits,
    };
  }

  /** Stops every render: a closed sandbox must not write its state or results any more. */
  async close(): Promise<void> {
    this.shutdown.abort();
    await this.options.renders.close();
  }

  private startRender(job: Job): void {
    const { renders, videoRenderer, now, onError } = this.options;
    const { signal } = this.shutdown;
    renders
      .run(() => renderJob(job, this.assetDir(job.assetToken), videoRenderer, signal))
      .then(() => {
        if (!signal.aborted) job.renderedAt = now();
      })
      .catch((error: unknown) => {
        if (signal.aborted || TERMINAL.has(job.status)) return;
        if (error instanceof InputError) {
          failPlan(job, error.failure, Math.max(now(), analysisEnd(job)));
        } else {
          onError(`rendering ${job.id} failed`, error);
          failPlan(
            job,
            { code: 'generation_failed', message: 'The generation failed; the credits were refunded.' },
            now(),
          );
        }
      })
      .finally(() => {
        if (!signal.aborted) this.store.changed();
      });
  }
}

function summarise(jobs: Job[], brand: { id: string; name: string }): UsageRow {
  const row: UsageRow = {
    brandId: brand.id,
    brandName: brand.name,
    images: 0,
    imageCredits: 0,
    videos: 0,
    videoCredits: 0,
  };
  for (const job of jobs) {
    const spent = job.refunded ? 0 : job.credits;
    if (job.kind === 'shoot') {
      row.imageCredits += spent;
      if (job.status === 'completed') row.images += job.shots;
    } else {
      row.videoCredits += spent;
      if (job.status === 'completed') row.videos += 1;
    }
  }
  return row;
}
