import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AccountView, PhotoReach, QuoteRequest, Settings, UploadProgress } from '../shared/models.ts';
import { ApiError, apiKeyId, maskApiKey, ServiceClient, UnauthorizedError } from './api/index.ts';
import { AccountStore, describeBalance, SANDBOX_ACCOUNT_ID } from './app/accounts.ts';
import { catalogHandlers } from './app/catalog-handlers.ts';
import { createDispatch, type Dispatch, type HandlerMap } from './app/dispatch.ts';
import { AppError } from './app/errors.ts';
import { CoreEvents, throttlePerKey } from './app/events.ts';
import { FileGateway } from './app/files.ts';
import { checkPhotoStorage, PhotoStorage } from './app/photo-storage.ts';
import type { SecretBox } from './app/secrets.ts';
import {
  type BatchFacts,
  batchDetail,
  batchProgress,
  batchSummaries,
  batchSummary,
  scannedProductView,
  scanView,
} from './app/views.ts';
import { openDatabase } from './db/open.ts';
import { isLoopbackUrl, type LoopbackHost, startLoopbackHost } from './hosting/loopback.ts';
import type { PhotoHost } from './hosting/photo-host.ts';
import { createS3Host } from './hosting/s3.ts';
import { setAsideEarlierShots } from './ingest/already-done.ts';
import { scanInputs, toNewProduct, withHero } from './ingest/scan.ts';
import type { IngestPlan } from './ingest/types.ts';
import { batchFolder, ingestCacheDir } from './library.ts';
import { quoteBatch } from './pricing.ts';
import { QueueStore } from './queue/store.ts';
import type { Batch, NewProduct, ShootSettings, VideoSettings } from './queue/types.ts';
import { type RateLimit, SERVICE_RATE_LIMIT } from './scheduler/budget.ts';
import { Engine } from './scheduler/engine.ts';

// The engine as the app uses it: one handler map (the IPC contract) over the queue, the accounts, ingest
// and a long-running engine, plus typed events. Electron registers `dispatch` on ipcMain, the browser
// harness on a WebSocket; both stay thin. Everything Electron-only (key sealing, preferences, the sandbox
// starter, file URLs) comes in as options.

export interface SandboxConnection {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface Preferences {
  read(): Partial<Settings>;
  write(settings: Settings): void;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface CoreOptions {
  dataDir: string;
  version: string;
  secrets: SecretBox;
  preferences: Preferences;
  defaults: Settings;
  /** The URL under which the transport serves a registered file (custom protocol, harness HTTP path). */
  fileUrl: (token: string) => string;
  startSandbox: () => Promise<SandboxConnection>;
  /** The OS's open dialog (Electron); the browser harness answers with a folder of its choosing. */
  openDialog: () => Promise<string[]>;
  /** Shows a folder in the OS file manager. */
  revealFolder: (path: string) => Promise<void>;
  /** Sandbox speed (default 0.1: ten times faster than real time). */
  sandboxTimeScale?: number;
  rateLimit?: RateLimit;
  now?: () => number;
  log: Logger;
}

export interface Core {
  handlers: HandlerMap;
  dispatch: Dispatch;
  events: CoreEvents;
  files: FileGateway;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const PROGRESS_INTERVAL_MS = 100;
const BALANCE_MAX_AGE_MS = 30_000;

/** The share of the service's limit the user keeps free for other apps using the same key. */
export function withMargin(limit: RateLimit, marginPercent: number): RateLimit {
  return {
    limit: Math.max(1, Math.floor((limit.limit * (100 - marginPercent)) / 100)),
    windowMs: limit.windowMs,
  };
}
const KEPT_SCANS = 20;
const SANDBOX_ACCOUNT_NAME = 'Sandbox';

export function createCore(options: CoreOptions): Core {
  const now = options.now ?? Date.now;
  const log = options.log;
  const db = openDatabase(join(options.dataDir, 'adbatch.db'));
  const store = new QueueStore(db, now);
  const accounts = new AccountStore(db, options.secrets, now);
  const storage = new PhotoStorage(db, options.secrets, now);
  const events = new CoreEvents();
  const files = new FileGateway(options.fileUrl);
  const scans = new Map<string, IngestPlan>();
  let scanCount = 0;
  let sandbox: Promise<SandboxConnection> | null = null;
  let host: LoopbackHost | null = null;
  let engine: Engine | null = null;
  let engineRun: Promise<void> | null = null;
  const lastStatus = new Map<string, string>();
  const uploads = new Map<string, UploadProgress>();
  let storageHost: PhotoHost | null = null;

  const settings = (): Settings => ({ ...options.defaults, ...options.preferences.read() });

  /** The engine asks for clients synchronously: the Sandbox's is made once, when the sandbox starts. */
  let sandboxClient: ServiceClient | null = null;
  const ensureSandbox = () => {
    sandbox ??= options.startSandbox().then(
      (connection) => {
        sandboxClient = new ServiceClient({ baseUrl: connection.url, apiKey: connection.apiKey });
        return connection;
      },
      (error) => {
        sandbox = null;
        throw error;
      },
    );
    return sandbox;
  };

  const sandboxView = async (): Promise<AccountView> => {
    const connection = await ensureSandbox();
    const balance = await withKey(SANDBOX_ACCOUNT_ID, (client) => client.getCredits());
    return {
      id: SANDBOX_ACCOUNT_ID,
      name: SANDBOX_ACCOUNT_NAME,
      kind: 'sandbox',
      baseUrl: 'sandbox',
      keyHint: maskApiKey(connection.apiKey),
      ...describeBalance(balance),
      checkedAt: now(),
      refusedAt: null,
    };
  };

  /** One client per account, for the handlers and the engine alike: its key is opened once, not per request. */
  const serviceClients = new Map<string, ServiceClient>();
  const serviceClientOf = (account: AccountView): ServiceClient => {
    let client = serviceClients.get(account.id);
    if (!client) {
      client = new ServiceClient({ baseUrl: account.baseUrl, apiKey: accounts.apiKey(account.id) });
      serviceClients.set(account.id, client);
    }
    return client;
  };

  /** An account's client, and the id of its key, which names the key's request budget. */
  const keyedClient = async (accountId: string): Promise<{ client: ServiceClient; keyId: string }> => {
    if (accountId === SANDBOX_ACCOUNT_ID) {
      const connection = await ensureSandbox();
      return { client: sandboxClient!, keyId: apiKeyId(connection.apiKey) };
    }
    return { client: serviceClientOf(accounts.get(accountId)), keyId: accounts.keyIdOf(accountId) };
  };

  const facts: BatchFacts = {
    accountName: (batch) =>
      batch.sandbox ? SANDBOX_ACCOUNT_NAME : (accounts.byKeyId(batch.keyId)?.name ?? `key ${batch.keyHint}`),
    upload: (batchId) => uploads.get(batchId) ?? null,
  };

  // Guess (documented in docs/app.md): storage, once set up, serves every service account, a service on
  // this machine included; without it, only a service on this machine can read photos from Adbatch itself.
  const reachOf = (sandbox: boolean, baseUrl: string): Exclude<PhotoReach, { kind: 'urls' }> => {
    if (sandbox) return { kind: 'this-computer' };
    const saved = storage.get();
    if (saved) return { kind: 'storage', bucket: saved.bucket };
    return isLoopbackUrl(baseUrl) ? { kind: 'this-computer' } : { kind: 'missing' };
  };
  const NO_STORAGE =
    'The service cannot read photos on this computer: set up photo storage in Settings, then start (or resume) the batch.';

  const hostFor = (batch: Batch): PhotoHost => {
    const reach = reachOf(batch.sandbox, batch.baseUrl);
    if (reach.kind === 'missing') throw new Error(NO_STORAGE);
    if (reach.kind === 'this-computer') return host!;
    storageHost ??= createS3Host(storage.config()!);
    return storageHost;
  };
  const replaceStorageHost = async () => {
    const previous = storageHost;
    storageHost = null;
    await previous?.close();
  };

  const requireBatch = (id: string): Batch => {
    const batch = store.batch(id);
    if (!batch) throw new AppError('not_found', `no batch ${id}`);
    return batch;
  };

  const summary = (id: string) => {
    const batch = requireBatch(id);
    return batchSummary(store, batch, facts);
  };

  /** A call to the service, its failures in words the user can act on. */
  const serviceCall = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        throw new AppError(
          'key_refused',
          'The service refused this key (401): check that it was copied whole and is still active.',
        );
      }
      if (error instanceof ApiError && error.status !== null) {
        throw new AppError('unreachable', `The service answered ${error.status}: ${error.message}`);
      }
      throw new AppError('unreachable', `The service could not be reached: ${(error as Error).message}`);
    }
  };

  /**
   * A call with an account's key outside the engine (balance, models): it takes its slot in that key's
   * request budget, so checking a balance cannot push a running batch into a 429.
   */
  const withKey = async <T>(accountId: string, call: (client: ServiceClient) => Promise<T>): Promise<T> => {
    const { client, keyId } = await keyedClient(accountId);
    const send = () => call(client);
    return serviceCall(() => (engine ? engine.request(keyId, send) : send()));
  };

  const progress = throttlePerKey(PROGRESS_INTERVAL_MS, (batchId) => {
    const batch = store.batch(batchId);
    if (!batch) return;
    if (batch.statusReason === 'hosting') uploads.delete(batchId);
    events.emit('batches:progress', batchProgress(store, batch, facts));
    const status = `${batch.status}:${batch.statusReason ?? ''}`;
    if (lastStatus.get(batchId) !== status) {
      lastStatus.set(batchId, status);
      events.emit('batches:changed', { id: batchId });
      if (batch.statusReason === 'unauthorized' && !batch.sandbox) {
        const account = accounts.byKeyId(batch.keyId);
        if (account) {
          accounts.markRefused(account.id);
          events.emit('accounts:changed', { id: account.id });
        }
      }
    }
  });

  const heldScan = (scanId: string): IngestPlan => {
    const plan = scans.get(scanId);
    if (!plan) throw new AppError('not_found', 'This scan is no longer held: drop the folders again.');
    return plan;
  };
  const plannedProducts = (scanId: string): NewProduct[] => heldScan(scanId).products.map(toNewProduct);

  // Every settings change on the New batch screen asks for a quote; the balance behind it is asked of the
  // service at most once per BALANCE_MAX_AGE_MS per account, so tweaking a form does not eat the key's
  // request budget. Creating a batch asks again (below) before it commits to the cost.
  const balances = new Map<string, { credits: number; at: number }>();
  const balanceOf = async (accountId: string, fresh = false): Promise<number> => {
    const known = balances.get(accountId);
    if (!fresh && known && now() - known.at < BALANCE_MAX_AGE_MS) return known.credits;
    const { credits } = await withKey(accountId, (client) => client.getCredits());
    balances.set(accountId, { credits, at: now() });
    return credits;
  };

  /** For `create`: the balance is asked again, and a batch whose photos cannot be reached is refused first. */
  const quoteFor = async (request: QuoteRequest, purpose: 'preview' | 'create') => {
    const products = plannedProducts(request.scanId);
    const shoot = request.shoot as ShootSettings;
    const video = request.video as VideoSettings | null;
    const { fresh, setAside } = setAsideEarlierShots(store, products, shoot, video, request.includeDone);
    const local = fresh.some((product) => product.photos.some((photo) => photo.path));
    const account = request.accountId === SANDBOX_ACCOUNT_ID ? null : accounts.get(request.accountId);
    const photos: PhotoReach = local
      ? reachOf(account === null, account?.baseUrl ?? 'sandbox')
      : { kind: 'urls' };
    if (purpose === 'create' && photos.kind === 'missing') throw new AppError('bad_request', NO_STORAGE);
    const quote = quoteBatch(
      fresh.map((product) => product.name),
      shoot,
      video,
      await balanceOf(request.accountId, purpose === 'create'),
    );
    return { fresh, setAside, quote, shoot, video, photos };
  };

  const startEngine = (batchIds: string[]) => {
    if (!host) throw new Error('start() first');
    engine = new Engine({
      store,
      batchIds,
      stayAlive: true,
      hostFor,
      rateLimit: withMargin(options.rateLimit ?? SERVICE_RATE_LIMIT, settings().budgetMarginPercent),
      timeScale: options.sandboxTimeScale ?? 0.1,
      clientFor: (batch) => {
        if (batch.sandbox) return sandboxClient;
        const account = accounts.byKeyId(batch.keyId);
        return account ? serviceClientOf(account) : null;
      },
      onChange: (batchId) => progress.touch(batchId),
      onHostingProgress: (batchId, upload) => {
        if (upload.done < upload.total) uploads.set(batchId, upload);
        else uploads.delete(batchId);
        progress.touch(batchId);
      },
      onNotice: (batchId, message) => log.warn(`${batchId}: ${message}`),
    });
    engineRun = engine.run().catch((error) => log.error('the engine stopped', error));
  };
  // An upload to storage can take minutes: the handler answers at once and the upload shows as progress.
  const drive = async (batch: Batch) => {
    if (batch.sandbox) await ensureSandbox();
    engine
      ?.drive(batch.id)
      .then(() => progress.touch(batch.id))
      .catch((error) => log.error(`batch ${batch.id} could not be driven`, error));
    progress.touch(batch.id);
  };

  const handlers: HandlerMap = {
    ...catalogHandlers,
    'app:info': async () => ({
      version: options.version,
      platform: process.platform,
      libraryDir: settings().libraryDir,
    }),

    'accounts:list': async () => {
      const sandboxAccount = await sandboxView();
      return [sandboxAccount, ...accounts.list()];
    },
    'accounts:add': async ({ name, baseUrl, apiKey }) => {
      accounts.checkNew(apiKey);
      const client = new ServiceClient({ baseUrl, apiKey });
      const balance = await serviceCall(() => client.getCredits());
      const account = accounts.add({ name, baseUrl, apiKey }, balance);
      balances.set(account.id, { credits: balance.credits, at: now() });
      log.info(`account added: ${name} (${account.keyHint})`);
      events.emit('accounts:changed', { id: account.id });
      return account;
    },
    'accounts:remove': async ({ id }) => {
      if (id === SANDBOX_ACCOUNT_ID)
        throw new AppError('bad_request', 'The Sandbox account is always there.');
      accounts.remove(id);
      serviceClients.delete(id);
      events.emit('accounts:changed', { id });
      return null;
    },
    'accounts:refresh': async ({ id }) => {
      if (id === SANDBOX_ACCOUNT_ID) return sandboxView();
      try {
        const balance = await withKey(id, (client) => client.getCredits());
        balances.set(id, { credits: balance.credits, at: now() });
        return accounts.recordBalance(id, balance);
      } catch (error) {
        if (error instanceof AppError && error.code === 'key_refused') accounts.markRefused(id);
        throw error;
      } finally {
        events.emit('accounts:changed', { id });
      }
    },

    'models:list': async ({ accountId }) => {
      const models = await withKey(accountId, (client) => client.listModels());
      return models
        .filter((model) => model.imageUrl)
        .map((model) => ({ id: model.id, name: model.name ?? model.id, imageUrl: model.imageUrl! }));
    },

    'dialog:open': async () => options.openDialog(),
    'library:reveal': async ({ batchId }) => {
      const batch = batchId ? requireBatch(batchId) : null;
      const folder = batch ? join(batch.libraryDir, batchFolder(batch)) : settings().libraryDir;
      await mkdir(folder, { recursive: true });
      await options.revealFolder(folder);
      return null;
    },
    'ingest:scan': async ({ inputs, pattern }) => {
      const tick = throttlePerKey(PROGRESS_INTERVAL_MS, () => events.emit('ingest:progress', latest));
      let latest = { checked: 0, total: 0 };
      const plan = await scanInputs(inputs, {
        cacheDir: ingestCacheDir(settings().libraryDir),
        pattern,
        onProgress: (progressNow) => {
          latest = progressNow;
          tick.touch('scan');
        },
      });
      tick.flush();
      const scanId = `s${++scanCount}`;
      scans.set(scanId, plan);
      for (const old of [...scans.keys()].slice(0, Math.max(0, scans.size - KEPT_SCANS))) scans.delete(old);
      return scanView(scanId, plan, files);
    },

    'ingest:hero': async ({ scanId, product: name, photo }) => {
      const plan = heldScan(scanId);
      const index = plan.products.findIndex((product) => product.name === name);
      const product = plan.products[index];
      if (!product) throw new AppError('not_found', `This scan has no product "${name}".`);
      if (!product.photos[photo])
        throw new AppError('bad_request', `${name} has ${product.photos.length} photos, not ${photo + 1}.`);
      plan.products[index] = withHero(product, photo);
      return scannedProductView(plan.products[index]!, files);
    },
    'batches:quote': async (request) => {
      const { quote, setAside, photos } = await quoteFor(request, 'preview');
      return {
        products: quote.products.map((row) => ({
          product: row.product,
          shots: row.shoot.shots,
          clamped: row.shoot.clamped,
          shootCredits: row.shoot.credits,
          videoCredits: row.videoCredits ?? 0,
          credits: row.credits,
        })),
        credits: quote.credits,
        balance: quote.balance,
        shortfall: quote.shortfall ?? 0,
        setAside,
        photos,
      };
    },
    'batches:create': async (request) => {
      const { fresh, quote, shoot, video } = await quoteFor(request, 'create');
      if (fresh.length === 0) {
        throw new AppError('conflict', 'Every product was already shot with these photos and settings.');
      }
      if (quote.shortfall) {
        throw new AppError(
          'conflict',
          `This batch costs ${quote.credits} credits; the balance is ${quote.balance}. Top up or choose fewer products.`,
        );
      }
      const sandboxAccount = request.accountId === SANDBOX_ACCOUNT_ID;
      const account = sandboxAccount ? null : accounts.get(request.accountId);
      const { keyId } = await keyedClient(request.accountId);
      const batch = store.createBatch({
        name: request.name,
        baseUrl: account ? account.baseUrl : 'sandbox',
        keyId,
        keyHint: account ? account.keyHint : maskApiKey((await ensureSandbox()).apiKey),
        sandbox: sandboxAccount,
        libraryDir: settings().libraryDir,
        shoot,
        video,
        products: fresh,
      });
      balances.delete(request.accountId);
      log.info(`batch ${batch.id} created: ${fresh.length} products, ${quote.credits} credits`);
      await drive(batch);
      events.emit('batches:changed', { id: batch.id });
      return batchSummary(store, batch, facts);
    },
    'batches:list': async () => batchSummaries(store, facts),
    'batches:get': async ({ id }) => {
      const batch = requireBatch(id);
      return batchDetail(store, batch, facts, files, now());
    },
    'batches:pause': async ({ id }) => {
      const batch = requireBatch(id);
      if (batch.status !== 'running')
        throw new AppError('conflict', `This batch is ${batch.status}: nothing to pause.`);
      store.pauseBatch(id);
      progress.touch(id);
      return summary(id);
    },
    'batches:resume': async ({ id }) => {
      const batch = requireBatch(id);
      if (batch.status !== 'paused')
        throw new AppError('conflict', `This batch is ${batch.status}: nothing to resume.`);
      store.resumeBatch(id);
      await drive(store.batch(id)!);
      return summary(id);
    },
    'batches:cancel': async ({ id }) => {
      const batch = requireBatch(id);
      if (batch.status === 'finished' || batch.status === 'cancelled') {
        throw new AppError('conflict', `This batch is ${batch.status}: nothing left to cancel.`);
      }
      store.cancelBatch(id);
      engine?.nudge();
      progress.touch(id);
      return summary(id);
    },
    'jobs:retry': async ({ id }) => jobDecision(id, (jobId) => store.retryJob(jobId)),
    'jobs:abandon': async ({ id }) => jobDecision(id, (jobId) => store.abandonJob(jobId)),
    'jobs:recheck': async ({ id }) =>
      jobDecision(id, (jobId) => store.recheckJob(jobId, now() + 30 * 60_000)),

    'storage:get': async () => storage.get(),
    'storage:set': async (input) => {
      const config = storage.resolve(input);
      await checkPhotoStorage(config, join(options.dataDir, 'storage-check'));
      const saved = storage.save(config);
      await replaceStorageHost();
      log.info(
        `photo storage set: bucket ${saved.bucket}${saved.endpoint ? ` at ${saved.endpoint}` : ''}${saved.secretHint ? ` (secret ${saved.secretHint})` : ''}`,
      );
      return saved;
    },
    'storage:clear': async () => {
      storage.clear();
      await replaceStorageHost();
      log.info('photo storage removed');
      return null;
    },

    'settings:get': async () => settings(),
    'settings:set': async (patch) => {
      const before = settings();
      const next = { ...before, ...patch };
      options.preferences.write(next);
      // The request budget is fixed when the engine starts: a new margin takes a restart of the engine,
      // which lets requests in flight finish first.
      if (next.budgetMarginPercent !== before.budgetMarginPercent && engine) {
        const driven = store.unfinishedBatches().map((batch) => batch.id);
        engine.stop();
        await engineRun;
        startEngine(driven);
      }
      return next;
    },
  };

  const jobDecision = async (jobId: string, decide: (jobId: string) => unknown) => {
    const job = store.job(jobId);
    if (!job) throw new AppError('not_found', `no job ${jobId}`);
    try {
      decide(jobId);
    } catch (error) {
      throw new AppError('conflict', (error as Error).message);
    }
    await drive(requireBatch(job.batchId));
    return summary(job.batchId);
  };

  return {
    handlers,
    dispatch: createDispatch(handlers, (error) => log.error('a handler failed', error)),
    events,
    files,
    async start() {
      host = await startLoopbackHost();
      const unfinished = store.unfinishedBatches();
      if (unfinished.some((batch) => batch.sandbox)) await ensureSandbox();
      for (const batch of unfinished) {
        lastStatus.set(batch.id, `${batch.status}:${batch.statusReason ?? ''}`);
      }
      startEngine(unfinished.map((batch) => batch.id));
    },
    async stop() {
      engine?.stop();
      await engineRun;
      progress.flush();
      await host?.close();
      await storageHost?.close();
      await (await sandbox?.catch(() => null))?.close();
      db.close();
    },
  };
}
