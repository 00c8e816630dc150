import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SecretBox } from '../../src-main/core/accounts/secrets.ts';
import { callHandler } from '../../src-main/core/app/dispatch.ts';
import { type Core, createCore, type Logger } from '../../src-main/core/create-core.ts';
import { startMcpHttp } from '../../src-main/mcp/http.ts';
import { startEmbeddedSandbox } from '../../src-main/sandbox/embedded.ts';
import type { ArgsOf, Channel, Events, ResultOf } from '../../src-main/shared/ipc.ts';
import type { NewBatchRequest } from '../../src-main/shared/models.ts';
import { QUICK_SHOOT } from './job-settings.ts';
import { memorySecretBox } from './secret-box.ts';
import { until } from './until.ts';

// The app's core as Electron runs it, outside Electron: a temp data dir and library, the embedded sandbox
// as the Sandbox account, keys sealed by a memory box, preferences in memory, files under /files/<token>.

/** How much faster than real time the harness runs (the embedded sandbox's jobs, the rate window), unless told. */
export const HARNESS_TIME_SCALE = 0.02;

/**
 * The request budget at a time scale: the same 60 requests, in a window as compressed as time. A sandbox
 * over HTTP that a harness's core calls gets it too: with the real 60 s window, a core that may send 60 in
 * 1.2 s is refused (429) for up to a minute of real time, longer than any wait for what it then sends.
 */
export function scaledRateLimit(timeScale: number): { limit: number; windowMs: number } {
  return { limit: 60, windowMs: 60_000 * timeScale };
}

export interface CoreHarness {
  core: Core;
  dir: string;
  logs: string[];
  /** Folders shown in the file manager. */
  revealed: string[];
  /** Files and folders shown selected in the file manager (an export's). */
  revealedItems: string[];
  /** The files of each drag out of the window, in order. */
  dragged: string[][];
  /** Every `batches:notice` since the core was made, its start's included, in order. */
  notices: Array<{ id: string; message: string }>;
  close(): Promise<void>;
}

/**
 * The photo hosts a test serves catalogs and logos from run on this computer, which the outbound policy
 * refuses unless they are allowed by name: a test that uses one allows it, as a designer allows their own.
 */
export const TEST_PHOTO_HOSTS = ['127.0.0.1'];

export async function startCoreHarness(
  options: {
    secrets?: SecretBox;
    timeScale?: number;
    dir?: string;
    /** What the stand-in for the OS open dialog answers. */
    pick?: string[];
    /** What the stand-in for the OS dialog that chooses an image (a logo) answers. */
    pickImage?: string | null;
    /** What the stand-in for the OS dialog that chooses a folder (an export's) answers; `<dir>/exports` by default. */
    pickFolder?: string | null;
    /** Why the stand-in for the OS file manager cannot show a folder (a desktop without one); it can by default. */
    revealFailure?: string;
    /**
     * A sandbox already running elsewhere (another process), used as the Sandbox account instead of the
     * embedded one; it is not this harness's to close.
     */
    sandbox?: { url: string; apiKey: string };
    /** The settings as the front end hands them over at start (unchecked, as a preferences file holds them). */
    preferences?: unknown;
    /** Hosts allowed for the session though not public (`--allow-host`): `TEST_PHOTO_HOSTS` for a test's own. */
    allowedHosts?: string[];
  } = {},
): Promise<CoreHarness> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'adbatch-core-')));
  const logs: string[] = [];
  const revealed: string[] = [];
  const revealedItems: string[] = [];
  const dragged: string[][] = [];
  const log: Logger = {
    info: (message) => logs.push(`info ${message}`),
    warn: (message) => logs.push(`warn ${message}`),
    error: (message, error) => logs.push(`error ${message} ${(error as Error | undefined)?.stack ?? ''}`),
  };
  let saved: unknown = options.preferences ?? {};
  const timeScale = options.timeScale ?? HARNESS_TIME_SCALE;
  const rateLimit = scaledRateLimit(timeScale);
  const core = createCore({
    dataDir: join(dir, 'data'),
    version: '0.0.0-test',
    secrets: options.secrets ?? memorySecretBox(),
    preferences: { read: () => saved, write: (settings) => (saved = settings) },
    defaults: { libraryDir: join(dir, 'library'), budgetMarginPercent: 0 },
    fileUrl: (token) => `/files/${token}`,
    startSandbox: async () => {
      if (options.sandbox) return { ...options.sandbox, close: async () => {} };
      const embedded = await startEmbeddedSandbox({
        dataDir: join(dir, 'data'),
        timeScale,
        onError: (message, error) => logs.push(`sandbox ${message}: ${(error as Error).message}`),
        rateLimit,
      });
      return { url: embedded.url, apiKey: embedded.apiKey, close: () => embedded.sandbox.close() };
    },
    openDialog: async () => options.pick ?? [],
    openImageDialog: async () => options.pickImage ?? null,
    revealFolder: async (path) => {
      revealed.push(path);
      return options.revealFailure ?? null;
    },
    openFolderDialog: async () =>
      options.pickFolder === undefined ? join(dir, 'exports') : options.pickFolder,
    revealItem: async (path) => {
      revealedItems.push(path);
    },
    startDrag: async (files) => {
      dragged.push(files);
    },
    // As the app serves them: the MCP tools over HTTP once turned on in Settings.
    serveAgents: (server) =>
      startMcpHttp({
        ...server,
        call: (channel, ...args) => callHandler(core.dispatch, channel, args[0]),
        defaultAccountId: 'sandbox',
        version: '0.0.0-test',
      }),
    timeScale,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    rateLimit,
    log,
  });
  const notices: Array<{ id: string; message: string }> = [];
  core.events.on('batches:notice', (notice) => notices.push(notice));
  await core.start();
  return {
    core,
    dir,
    logs,
    revealed,
    revealedItems,
    dragged,
    notices,
    async close() {
      await core.stop();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A handler's result, through the dispatch every transport uses; a refusal throws with its code. */
export function callCore<C extends Channel>(core: Core, channel: C, args?: ArgsOf<C>): Promise<ResultOf<C>> {
  return callHandler(core.dispatch, channel, args);
}

/** A call that must be refused: its error as the renderer would get it. */
export async function refusalOf(
  core: Core,
  channel: string,
  args: unknown,
): Promise<{ code: string; message: string }> {
  const reply = await core.dispatch(channel, args);
  expect(reply.ok).toBe(false);
  return (reply as { error: { code: string; message: string } }).error;
}

/** Waits until a batch has finished, as the app's screens would see it (its status through the map). */
export async function untilFinished(core: Core, batchId: string): Promise<void> {
  await until(async () => (await callCore(core, 'batches:get', { id: batchId })).status === 'finished');
}

/**
 * A batch made from what `inputs` names (product folders, or a catalog file), shot again if it was shot
 * before, and waited for until it has finished: its id. One QUICK_SHOOT shot a product and no video on the
 * embedded sandbox's account, unless told otherwise.
 */
export async function finishedBatch(
  core: Core,
  options: { inputs: string[]; name: string } & Partial<
    Pick<NewBatchRequest, 'accountId' | 'shoot' | 'video' | 'videoWhen'>
  >,
): Promise<string> {
  const { inputs, ...request } = options;
  const scan = await callCore(core, 'ingest:scan', { inputs });
  const batch = await callCore(core, 'batches:create', {
    scanId: scan.scanId,
    accountId: 'sandbox',
    shoot: QUICK_SHOOT,
    video: null,
    includeDone: true,
    ...request,
  });
  await untilFinished(core, batch.id);
  return batch.id;
}

/** The next `batches:notice` whose message passes `test`, whenever core announces it: it waits for the event. */
export function nextNotice(
  core: Core,
  test: (message: string) => boolean,
): Promise<Events['batches:notice']> {
  return new Promise((resolve) => {
    const off = core.events.on('batches:notice', (notice) => {
      if (!test(notice.message)) return;
      off();
      resolve(notice);
    });
  });
}

/** Picks these results of a batch, as Review's P does. */
export async function pickResults(core: Core, batchId: string, resultIds: number[]): Promise<void> {
  await callCore(core, 'review:decide', { batchId, resultIds, change: { flag: 'picked' } });
}
