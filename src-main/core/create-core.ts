import { existsSync } from 'node:fs';
import type { Settings } from '../shared/models.ts';
import { AccountStore } from './accounts/account-store.ts';
import { accountsHandlers } from './accounts/handlers.ts';
import type { SecretBox } from './accounts/secrets.ts';
import { type SandboxConnection, ServiceAccess, type SessionKey } from './accounts/service-access.ts';
import { type AgentServerStarter, agentServer } from './agents/agent-server.ts';
import { agentDesk } from './agents/handlers.ts';
import { AgentQuoteStore } from './agents/quote-store.ts';
import { AgentRequestStore } from './agents/request-store.ts';
import type { AppContext, Logger, Preferences } from './app/context.ts';
import { createDispatch, type Dispatch, type HandlerMap } from './app/dispatch.ts';
import { AppError } from './app/errors.ts';
import { CoreEvents } from './app/events.ts';
import { FileGateway } from './app/files.ts';
import { fsRefusalOf } from './app/fs-refusal.ts';
import { rememberedLibrary, rememberLibrary } from './app/library-choice.ts';
import { DatabaseBackups, latestBackup } from './db/backups.ts';
import { asDataFolderError, DataFolderError } from './db/data-folder-fault.ts';
import { type Db, databaseFile, openDatabase } from './db/open.ts';
import { readSettings } from './db/stored.ts';
import { ExportRecords } from './export/export-records.ts';
import { exportHandlers } from './export/handlers.ts';
import { LastExportChoices } from './export/last-choice.ts';
import { exportOutHandlers } from './export/out-handlers.ts';
import { RecipeStore } from './export/recipe-store.ts';
import { PhotoReachService } from './hosting/photo-reach.ts';
import { PhotoStorage } from './hosting/photo-storage.ts';
import type { S3HostingConfig } from './hosting/s3.ts';
import { storageHandlers } from './hosting/storage-handlers.ts';
import { foldersHandlers } from './ingest/folders-handlers.ts';
import { ingestHandlers } from './ingest/handlers.ts';
import { ScanHolder } from './ingest/scan-holder.ts';
import { type BatchCheck, batchCheck } from './ledger/batch-check.ts';
import { BrandStore } from './ledger/brand-store.ts';
import { agencyHandlers } from './ledger/brands-handlers.ts';
import { usageHandlers } from './ledger/usage-handlers.ts';
import type { OutboundPolicy } from './net/outbound-policy.ts';
import { productsHandlers } from './products/handlers.ts';
import { batchesHandlers } from './queue/batches-handlers.ts';
import { jobsHandlers } from './queue/jobs-handlers.ts';
import { type LeaseMode, QueueDriver } from './queue/queue-driver.ts';
import { holdRestoredBatches, type RestoredBatch } from './queue/restored-backup.ts';
import { QueueStore } from './queue/store.ts';
import { reviewHandlers } from './review/handlers.ts';
import { previewsDir, ResultPreviews } from './review/previews.ts';
import { reshootHandlers } from './review/reshoot-handlers.ts';
import { ReviewHistory } from './review/review-history.ts';
import { ReviewStore } from './review/review-store.ts';
import { videosHandlers } from './review/videos-handlers.ts';
import { type RateLimit, SERVICE_RATE_LIMIT } from './scheduler/budget.ts';
import { catalogHandlers } from './settings/catalog-handlers.ts';
import { settingsHandlers } from './settings/handlers.ts';

// The one composition root. Every service is built here once (the store, the accounts, the way to the
// service, photo hosting, the queue's owner and its engine, the event bus) and handed to small per-domain
// handler modules; the typed map every front end calls is their merge. Electron registers `dispatch` on
// ipcMain, the browser harness on a WebSocket, the CLI calls it directly: what only one front end has (the
// OS dialog, safeStorage, the CLI's key and flags) comes in as options.

export type { SandboxConnection, SessionKey } from './accounts/service-access.ts';
export type { Logger, Preferences } from './app/context.ts';
export type { LeaseMode } from './queue/queue-driver.ts';

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
  openDialog?: () => Promise<string[]>;
  /**
   * The user's home, for a front end with no OS dialog (the app in a browser): its folder browser shows the
   * folders in it (`folders:list`). None by default: the front end has the OS's dialog.
   */
  browseHome?: string;
  /** The OS's open dialog for one image file (a logo); null when cancelled or where there is none. */
  openImageDialog?: () => Promise<string | null>;
  /** Shows a folder in the OS file manager; answers why it could not (the OS's words), or null. */
  revealFolder?: (path: string) => Promise<string | null>;
  /** The OS's dialog to choose a folder (an export's); the browser harness answers with one of its choosing. */
  openFolderDialog?: () => Promise<string | null>;
  /** Shows a file or folder selected in its folder, in the OS file manager. */
  revealItem?: (path: string) => Promise<void>;
  /** Drags files out of the window (Electron's `startDrag`); the browser harness records them. */
  startDrag?: (files: string[]) => Promise<void>;
  /** Prints the window, showing a client statement, to a PDF where the user chooses (Electron's printToPDF). */
  printStatement?: (fileName: string) => Promise<{ path: string } | null>;
  /** Serves the MCP tools over HTTP on this computer (the app, the harness): src-main/mcp/http.ts. */
  serveAgents?: AgentServerStarter;
  /** Who this process is, named to another process refused the queue: "Adbatch", "adbatch run". */
  holderName?: string;
  /** How this process takes the data folder's queue (default `wait`: the app's). */
  leaseMode?: LeaseMode;
  /** Drive every unfinished batch, and those another process creates or reopens (default true). */
  driveUnfinished?: boolean;
  /** Keys a front end holds for this session only, never stored (the CLI's ADBATCH_API_KEY). */
  sessionKeys?: SessionKey[];
  /** Hosts allowed for this session on top of those in Settings (the CLI's --allow-host). */
  allowedHosts?: string[];
  /** Storage given for this session (the CLI's --s3-* flags); wins over the one in Settings. */
  sessionStorage?: S3HostingConfig | null;
  /** Multiplies the engine's duration priors and delays (default 0.1: the sandbox runs ten times faster). */
  timeScale?: number;
  rateLimit?: RateLimit;
  now?: () => number;
  log: Logger;
}

export interface Core {
  handlers: HandlerMap;
  dispatch: Dispatch;
  events: CoreEvents;
  files: FileGateway;
  /** Takes the queue as `leaseMode` says (throws LeaseHeldError for `require` when it is held). */
  start(): Promise<void>;
  /** Resolves once nothing this process drives can move without the user (`adbatch run` then exits). */
  whenIdle(): Promise<void>;
  /** Lets requests in flight settle, writes manifests, releases the queue; once, however often called. */
  stop(): Promise<void>;
}

/** The share of the service's limit the user keeps free for other apps using the same key. */
export function withMargin(limit: RateLimit, marginPercent: number): RateLimit {
  return {
    limit: Math.max(1, Math.floor((limit.limit * (100 - marginPercent)) / 100)),
    windowMs: limit.windowMs,
  };
}

/**
 * Whether anything has run with this data folder: its database is there, or its automatic backups are (a
 * database gone from beside them is refused by the open, never read as "no batches": db/check.ts).
 */
export function dataFolderHasQueue(dataDir: string): boolean {
  return existsSync(databaseFile(dataDir)) || latestBackup(dataDir) !== null;
}

/** The queue's database; a data folder that cannot be written, or a damaged database, is refused in one sentence. */
function openDataFolderDatabase(dataDir: string): Db {
  try {
    return openDatabase(databaseFile(dataDir));
  } catch (error) {
    throw asDataFolderError(error, dataDir);
  }
}

/**
 * The queue over the data folder's database; a restored backup's unfinished batches are held for a person
 * before anything can drive them (queue/restored-backup.ts).
 */
function openQueue(dataDir: string, now: () => number): { store: QueueStore; restored: RestoredBatch[] } {
  const db = openDataFolderDatabase(dataDir);
  const store = new QueueStore(db, now);
  try {
    return { store, restored: holdRestoredBatches(store) };
  } catch (error) {
    db.close();
    throw asDataFolderError(error, dataDir);
  }
}

/** A handler that met a damaged database answers with the sentence that says what to do, as the start does. */
function damageRefusal(error: unknown, dataDir: string): AppError | null {
  const fault = asDataFolderError(error, dataDir);
  return fault instanceof DataFolderError && fault.kind === 'damaged'
    ? new AppError('damaged_database', fault.message)
    : null;
}

export function createCore(options: CoreOptions): Core {
  const now = options.now ?? Date.now;
  const { log, dataDir } = options;
  const { store, restored } = openQueue(dataDir, now);
  const { db } = store;
  for (const { batchId, message } of restored) log.warn(`${batchId}: Paused: ${message}`);
  const backups = new DatabaseBackups(db, dataDir, now);
  const accounts = new AccountStore(db, options.secrets, now);
  const brands = new BrandStore(db, store.caps, now);
  const storage = new PhotoStorage(db, options.secrets, now);
  const events = new CoreEvents();
  // Saved settings that do not parse fall back to their defaults field by field, said once per damage.
  let unreadableSettings = '';
  const settings = (): Settings => {
    const read = readSettings(options.preferences.read(), options.defaults);
    const unreadable = read.unreadable.join('; ');
    if (unreadable && unreadable !== unreadableSettings) {
      log.warn(`Saved settings that cannot be read are back to their defaults: ${unreadable}`);
    }
    unreadableSettings = unreadable;
    return read.settings;
  };
  const outbound = (): OutboundPolicy => ({
    allowedHosts: [...(settings().allowedHosts ?? []), ...(options.allowedHosts ?? [])],
  });
  // The data folder keeps the library it was first opened with, and the one Settings chose since: every
  // front end on it then uses that one unless told otherwise (app/library-choice.ts).
  // A folder that takes the database but not this small file (a disk full just now) only costs the memory.
  try {
    if (rememberedLibrary(dataDir) === null) rememberLibrary(dataDir, settings().libraryDir);
  } catch (error) {
    log.warn(`The data folder could not remember its library: ${(error as Error).message}`);
  }
  let queue: QueueDriver | null = null;
  const services = new ServiceAccess({
    accounts,
    startSandbox: options.startSandbox,
    sessionKeys: options.sessionKeys ?? [],
    now,
    inBudget: (keyId, send) => (queue ? queue.request(keyId, send) : send()),
  });
  const photos = new PhotoReachService(dataDir, storage, options.sessionStorage ?? null);
  const previews = new ResultPreviews(previewsDir(dataDir), log);
  // Made once the context exists, which needs the queue first; no batch finishes before then.
  let checkBatch: BatchCheck = async () => {};
  queue = new QueueDriver({
    dataDir,
    holderName: options.holderName ?? 'Adbatch',
    leaseMode: options.leaseMode ?? 'wait',
    driveUnfinished: options.driveUnfinished ?? true,
    store,
    services,
    photos,
    outbound,
    events,
    log,
    rateLimit: () => withMargin(options.rateLimit ?? SERVICE_RATE_LIMIT, settings().budgetMarginPercent),
    timeScale: options.timeScale ?? 0.1,
    previews,
    afterBatch: (batchId) => checkBatch(batchId),
  });

  // Every service once, in one object every domain's handlers take their part of (each names what it needs).
  const base: AppContext = {
    dataDir,
    version: options.version,
    now,
    log,
    events,
    files: new FileGateway(options.fileUrl),
    settings,
    outbound,
    writeSettings: (next) => {
      // A library chosen in Settings becomes the data folder's; settings written for another reason (the
      // last batch's) carry the one in use, which may be a command's --library for that once.
      const chosen = next.libraryDir !== settings().libraryDir;
      options.preferences.write(next);
      if (chosen) rememberLibrary(dataDir, next.libraryDir);
    },
    openDialog: options.openDialog ?? (async () => []),
    openImageDialog: options.openImageDialog ?? (async () => null),
    revealFolder: options.revealFolder ?? (async () => 'there is no file manager to open it in here'),
    openFolderDialog: options.openFolderDialog ?? (async () => null),
    revealItem: options.revealItem ?? (async () => {}),
    startDrag: options.startDrag ?? (async () => {}),
  };
  const review = new ReviewStore(db, now);
  const ctx = {
    ...base,
    db,
    store,
    accounts,
    brands,
    storage,
    services,
    photos,
    queue,
    backups,
    scans: new ScanHolder(),
    review,
    recipes: new RecipeStore(dataDir),
    exportRecords: new ExportRecords(db, now),
    lastChoices: new LastExportChoices(db, now),
  };
  checkBatch = batchCheck(ctx);

  const exports = exportHandlers(ctx);
  const agentsServer = agentServer(ctx, options.serveAgents);
  const agents = agentDesk({
    ...ctx,
    agentRequests: new AgentRequestStore(db, now),
    agentQuotes: new AgentQuoteStore(db, now),
    handlers: () => handlers,
  });
  let stopWatching = () => {};
  const handlers: HandlerMap = {
    ...catalogHandlers,
    ...settingsHandlers(ctx),
    ...accountsHandlers(ctx),
    ...agencyHandlers(ctx),
    ...agents.handlers,
    ...agentsServer.handlers,
    ...usageHandlers({
      ...ctx,
      ...(options.printStatement ? { printStatement: options.printStatement } : {}),
    }),
    ...ingestHandlers(ctx),
    ...foldersHandlers({ browseHome: options.browseHome ?? null }),
    ...batchesHandlers(ctx),
    ...jobsHandlers(ctx),
    ...reviewHandlers({ ...ctx, reviewHistory: new ReviewHistory(), previews }),
    ...videosHandlers(ctx),
    ...reshootHandlers(ctx),
    ...productsHandlers(ctx),
    ...storageHandlers(ctx),
    ...exports.handlers,
    ...exportOutHandlers(ctx),
  };
  const driver = queue;
  // A quit can come while the start is still taking the queue: stopping waits for it, so the database is
  // never closed under a start in progress.
  let starting: Promise<void> = Promise.resolve();
  // Stopped once: a second stop (a signal during the app's quit, a CLI command's `finally` after `follow`
  // stopped it) waits for the first, rather than writing manifests to the database the first one closed.
  let stopping: Promise<void> | null = null;
  const stopOnce = async () => {
    await starting.catch(() => {});
    stopWatching();
    await agentsServer.stop();
    await exports.stop();
    await driver.stop();
    await previews.close();
    await photos.close();
    await services.close();
    await backups.settle();
    db.close();
  };

  return {
    handlers,
    dispatch: createDispatch(
      handlers,
      // Only what no sentence exists for reaches here: a bug, said so, with its details for the report.
      (error) => log.error('an unexpected error (a fault in Adbatch itself)', error),
      // A damaged database, then a file-system failure no handler put in words (issue 28, point 7).
      (error) => damageRefusal(error, dataDir) ?? fsRefusalOf(error),
    ),
    events,
    files: ctx.files,
    start() {
      stopWatching = agents.watch();
      // Said once the front end listens: the batches of a restored backup wait for a person.
      for (const { batchId, message } of restored) {
        events.emit('batches:notice', { id: batchId, message: `Paused: ${message}` });
      }
      // Damage met while taking the queue (reading its batches) is refused in the same sentence as at the open.
      starting = driver
        .start()
        .then(() => agentsServer.resume())
        .catch((error: unknown) => {
          throw asDataFolderError(error, dataDir);
        });
      return starting;
    },
    whenIdle: () => driver.whenIdle(),
    stop() {
      stopping ??= stopOnce();
      return stopping;
    },
  };
}
