import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { SANDBOX_ACCOUNT_ID } from '../../../../src-main/core/accounts/account-store.ts';
import type { Db } from '../../../../src-main/core/db/open.ts';
import { openDatabase } from '../../../../src-main/core/db/open.ts';
import type { JobId } from '../../../../src-main/core/queue/ids.ts';
import { QueueStore, type RemoteAcceptance } from '../../../../src-main/core/queue/store.ts';
import type {
  Job,
  NewBatch,
  NewProduct,
  ShootSettings,
  VideoSettings,
} from '../../../../src-main/core/queue/types.ts';

// Shared by the store and manifest tests: a real SQLite file in a temp dir, a hand-driven clock, and the
// store calls that carry a job through its states the way the engine does.

/** classic, 4 shots, pro: 4 x 2 = 8 credits. */
export const SHOOT: ShootSettings = {
  style: 'classic',
  shots: 4,
  quality: 'pro',
  aspectRatio: '1:1',
  mode: 'product_only',
  modelUrl: null,
  backgroundColor: null,
};
export const SHOOT_PRICE = 8;

/** 10 s 720p product only: ceil(4 x 10 x 0.85) = 34 credits. */
export const VIDEO: VideoSettings = {
  duration: 10,
  resolution: '720p',
  mode: 'product_only',
  aspectRatio: null,
};
export const VIDEO_PRICE = 34;

export const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);

export interface StoreContext {
  dir: string;
  file: string;
  db: Db;
  store: QueueStore;
  clock: { now: number };
  close(): Promise<void>;
}

/**
 * Call at the top of a test file: each test gets a store of its own (`openStore`), closed and removed after
 * it. The context answers for the test under way; `db` and `store` may be replaced (a reopened file).
 */
export function storePerTest(): StoreContext {
  let current: StoreContext | null = null;
  beforeEach(async () => {
    const opened = await openStore();
    current = opened;
    return async () => {
      current = null;
      await opened.close();
    };
  });
  const now = () => {
    if (!current) throw new Error('the store is opened before each test, not outside one');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    get file() {
      return now().file;
    },
    get db() {
      return now().db;
    },
    set db(db) {
      now().db = db;
    },
    get store() {
      return now().store;
    },
    set store(store) {
      now().store = store;
    },
    get clock() {
      return now().clock;
    },
    close: () => now().close(),
  };
}

export async function openStore(): Promise<StoreContext> {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-store-'));
  const file = join(dir, 'adbatch.db');
  const db = openDatabase(file);
  const clock = { now: T0 };
  const store = new QueueStore(db, () => clock.now);
  return {
    dir,
    file,
    db,
    store,
    clock,
    async close() {
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function products(count: number, root = '/photos'): NewProduct[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `Product ${index + 1}`,
    sourceDir: `${root}/product-${index + 1}`,
    photos: [
      { path: `${root}/product-${index + 1}/1.png`, url: null },
      { path: null, url: `https://cdn.example.com/p${index + 1}.jpg` },
    ],
  }));
}

export function newBatch(overrides: Partial<NewBatch> = {}): NewBatch {
  return {
    name: 'Spring drop',
    accountId: SANDBOX_ACCOUNT_ID,
    baseUrl: 'http://127.0.0.1:9/v1',
    keyId: 'key-a',
    keyHint: 'sk_…abcd',
    sandbox: true,
    libraryDir: '/library',
    shoot: SHOOT,
    video: VIDEO,
    products: products(2),
    ...overrides,
  };
}

let remoteCounter = 0;

export function acceptance(
  ctx: StoreContext,
  job: Job,
  overrides: Partial<RemoteAcceptance> = {},
): RemoteAcceptance {
  remoteCounter++;
  return {
    remoteId: `${job.kind}_${remoteCounter}`,
    remoteStatus: 'queued',
    credits: job.price,
    balanceAfter: 1000 - job.price,
    deadlineAt: ctx.clock.now + 600_000,
    nextPollAt: ctx.clock.now + 5_000,
    ...overrides,
  };
}

/** waiting -> submitting -> running, as the engine does around a 201. */
export function submitAndAccept(
  ctx: StoreContext,
  jobId: JobId,
  overrides: Partial<RemoteAcceptance> = {},
): Job {
  const job = ctx.store.jobs.beginSubmit(jobId, { job: jobId });
  ctx.clock.now += 100;
  return ctx.store.jobs.acceptSubmit(jobId, acceptance(ctx, job, overrides));
}

/** running -> downloading with `count` image results, paths under the batch's library folder. */
export function complete(ctx: StoreContext, jobId: JobId, paths: string[]): Job {
  ctx.clock.now += 1_000;
  return ctx.store.jobs.completeRemote(
    jobId,
    'completed',
    paths.map((path, idx) => ({
      kind: 'image' as const,
      idx,
      url: `http://results.invalid/${jobId}/${idx}.png`,
      path,
    })),
  );
}

export function shootAndVideo(
  ctx: StoreContext,
  batchId: string,
  position: number,
): { shoot: Job; video: Job } {
  const product = ctx.store.batches.products(batchId)[position]!;
  const jobs = ctx.store.jobs.ofBatch(batchId).filter((job) => job.productId === product.id);
  return {
    shoot: jobs.find((job) => job.kind === 'shoot')!,
    video: jobs.find((job) => job.kind === 'video')!,
  };
}
