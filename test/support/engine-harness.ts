import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SANDBOX_ACCOUNT_ID } from '../../src-main/core/accounts/account-store.ts';
import { apiKeyId, ServiceClient } from '../../src-main/core/api/index.ts';
import { openDatabase } from '../../src-main/core/db/open.ts';
import { type LoopbackHost, startLoopbackHost } from '../../src-main/core/hosting/loopback.ts';
import { scanInputs, toNewProduct } from '../../src-main/core/ingest/scan.ts';
import { newAccountId } from '../../src-main/core/queue/ids.ts';
import { QueueStore } from '../../src-main/core/queue/store.ts';
import type { Batch, Job, ShootSettings, VideoSettings } from '../../src-main/core/queue/types.ts';
import { parseRateLimit } from '../../src-main/core/scheduler/budget.ts';
import { Engine, type EngineOptions } from '../../src-main/core/scheduler/engine.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src-main/sandbox/server.ts';
import { QUICK_SHOOT } from './job-settings.ts';
import { makeProductFolders } from './product-folders.ts';

// The real engine against the real sandbox over HTTP, with a real SQLite file and real photos, in one
// process: for tests that drive a whole batch and then read the sandbox's request log and the database.

export interface EngineHarness {
  dir: string;
  sandbox: Sandbox;
  store: QueueStore;
  host: LoopbackHost;
  apiKey: string;
  /**
   * A batch of photo folders made for the test. A batch of the sandbox by default, as it is; `sandbox:
   * false` makes it a batch of the real service as the engine sees it (served by the same sandbox).
   */
  createBatch(input: {
    products: number;
    shoot?: Partial<ShootSettings>;
    video?: VideoSettings | null;
    sandbox?: boolean;
  }): Promise<Batch>;
  /** An engine over these batches, not yet running. */
  engine(batchIds: string[], options?: Partial<EngineOptions>): Engine;
  run(batchIds: string[], options?: Partial<EngineOptions>): Promise<Engine>;
  close(): Promise<void>;
}

/** The sandbox with these options; the engine's budget is the sandbox's own rate limit (`N/Ws`). */
export type EngineHarnessOptions = SandboxOptions & { rateLimit: string };

export async function startEngineHarness(sandboxOptions: EngineHarnessOptions): Promise<EngineHarness> {
  const rateLimit = parseRateLimit(sandboxOptions.rateLimit);
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-engine-'));
  const sandbox = await startSandbox({ videoRenderer: 'bundled', ...sandboxOptions });
  // The data folder beside the product folders, not above them: what lies inside a data folder (its
  // adbatch.db) is Adbatch's own and never scanned as products.
  const dataDir = join(dir, 'data');
  await mkdir(dataDir);
  const store = new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
  const host = await startLoopbackHost();
  const apiKey = sandbox.accounts()[0]!.keys[0]!.key;
  let folders = 0;
  const makeEngine = (batchIds: string[], options: Partial<EngineOptions> = {}) =>
    new Engine({
      store,
      batchIds,
      clientFor: () =>
        new ServiceClient({ baseUrl: sandbox.url, apiKey, timeoutMs: { create: 5000, read: 5000 } }),
      hostFor: () => host,
      rateLimit,
      sandboxTimeScale: sandboxOptions.timeScale ?? 1,
      ...options,
    });
  return {
    dir,
    sandbox,
    store,
    host,
    apiKey,
    async createBatch({ products, shoot, video = null, sandbox: onSandbox = true }) {
      const root = join(dir, `products-${++folders}`);
      await makeProductFolders(root, products);
      const scan = await scanInputs([root], { cacheDir: join(dir, 'ingest-cache') });
      return store.createBatch({
        name: `test ${folders}`,
        // A real service's batch needs no account row here: the engine is handed its client.
        accountId: onSandbox ? SANDBOX_ACCOUNT_ID : newAccountId(),
        baseUrl: sandbox.url,
        keyId: apiKeyId(apiKey),
        keyHint: apiKey.slice(-4),
        sandbox: onSandbox,
        libraryDir: join(dir, 'library'),
        shoot: { ...QUICK_SHOOT, ...shoot },
        video,
        products: scan.products.map(toNewProduct),
      });
    },
    engine: makeEngine,
    async run(batchIds, options = {}) {
      const engine = makeEngine(batchIds, options);
      await engine.run();
      return engine;
    },
    async close() {
      await host.close();
      await sandbox.close();
      store.db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The harness of a test file: started before its first test, closed after its last. Call it at the top of
 * the file; its fields are there from the first test on.
 */
export function engineHarnessForFile(options: EngineHarnessOptions): EngineHarness {
  const harness = {} as EngineHarness;
  beforeAll(async () => {
    Object.assign(harness, await startEngineHarness(options));
  });
  afterAll(async () => {
    await harness.close?.();
  });
  return harness;
}

/** Adds a fault rule to the sandbox (see docs/sandbox.md). */
export async function addFault(sandbox: Sandbox, rule: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  if (response.status !== 201) throw new Error(`fault refused: ${await response.text()}`);
}

/** POSTs the sandbox accepted (anything but a 429 or an injected status), keyed by what they were made from. */
export function acceptedPostsBySource(sandbox: Sandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of sandbox.requests()) {
    if (entry.method !== 'POST' || entry.status === 429 || entry.fault === 'status') continue;
    const body = entry.body as { product_image_urls?: string[]; image_urls?: string[] };
    const source = JSON.stringify(body.product_image_urls ?? body.image_urls);
    counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  return counts;
}

/** The jobs not done, each with its state and why: what a test that expects every job done shows on failure. */
export function unfinished(jobs: Job[]): string[] {
  return jobs
    .filter((job) => job.state !== 'done')
    .map((job) => `${job.kind} ${job.id} ${job.state}: ${job.failureMessage ?? ''}`);
}
