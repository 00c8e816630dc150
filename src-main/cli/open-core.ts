import { resolve } from 'node:path';
import { callHandler } from '../core/app/dispatch.ts';
import type { LibraryChoice } from '../core/app/library-choice.ts';
import type { RateLimit, S3HostingConfig, SecretBox } from '../core/app/public-api.ts';
import {
  type Core,
  createCore,
  dataFolderHasQueue,
  type LeaseMode,
  type SessionKey,
} from '../core/create-core.ts';
import { DEFAULT_SANDBOX_TIME_SCALE, startEmbeddedSandbox } from '../sandbox/embedded.ts';
import type { ArgsOf, Channel, ResultOf } from '../shared/ipc.ts';
import { chooseCliLibrary } from './paths.ts';
import { VERSION } from './version.ts';

// The CLI's core: the same composition root as the app, given what only the CLI has (the key from
// ADBATCH_API_KEY, the S3 flags, the rate limit and time scale, the library folder) as options.

/**
 * The CLI cannot open keys the app sealed in the OS keychain, and keeps none of its own: a batch of a stored
 * account is resumed with that key in ADBATCH_API_KEY.
 */
const NO_KEYCHAIN: SecretBox = {
  available: () => false,
  seal: () => {
    throw new Error('the command line does not store keys: give the key in ADBATCH_API_KEY');
  },
  open: () => {
    throw new Error('keys stored by the app are opened only by the app: give the key in ADBATCH_API_KEY');
  },
};

export interface CliCoreOptions {
  dataDir: string;
  /** Who drives the queue, named to another process: "adbatch run". */
  holderName: string;
  leaseMode: LeaseMode;
  driveUnfinished?: boolean;
  /** The library this command was told (--library); else the data folder's (core/app/library-choice.ts). */
  library?: string | undefined;
  /**
   * The data folder whose library this is, when the core opens another (scan's throwaway one): that
   * folder's remembered library is used.
   */
  libraryOf?: string;
  sessionKeys?: SessionKey[];
  storage?: S3HostingConfig | null;
  /** Hosts input may be fetched from though they are not public (`--allow-host`). */
  allowHosts?: string[];
  rateLimit?: RateLimit;
  /** The embedded sandbox's speed, and the engine's clock for it. */
  timeScale?: number;
}

export interface CliCore {
  core: Core;
  /** The library this command uses, and why (what `libraryLine` says). */
  library: LibraryChoice;
  call<C extends Channel>(
    channel: C,
    ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
  ): Promise<ResultOf<C>>;
}

/**
 * Whether anything has run with this data folder. Read-only commands open no core where there is none, so
 * that looking never creates a database.
 */
export function hasQueue(dataDir: string): boolean {
  return dataFolderHasQueue(resolve(dataDir));
}

export function openCliCore(options: CliCoreOptions): CliCore {
  // The sandbox's speed, as the sandbox this process would start runs (and as the app and `adbatch run` run
  // it): what a sandbox batch's guessed spans are scaled by, whether this process drives it or only looks
  // (a look at 1 waited ten times too long before saying its service does not answer).
  const timeScale = options.timeScale ?? DEFAULT_SANDBOX_TIME_SCALE;
  const dataDir = resolve(options.dataDir);
  const library = chooseCliLibrary(options.libraryOf ?? dataDir, options.library);
  const core = createCore({
    dataDir: resolve(options.dataDir),
    version: VERSION,
    secrets: NO_KEYCHAIN,
    preferences: { read: () => ({}), write: () => {} },
    defaults: { libraryDir: library.dir, budgetMarginPercent: 0 },
    fileUrl: () => '',
    startSandbox: async () => {
      const embedded = await startEmbeddedSandbox({
        dataDir: resolve(options.dataDir),
        timeScale,
      });
      return { url: embedded.url, apiKey: embedded.apiKey, close: () => embedded.sandbox.close() };
    },
    holderName: options.holderName,
    leaseMode: options.leaseMode,
    driveUnfinished: options.driveUnfinished ?? false,
    sessionKeys: options.sessionKeys ?? [],
    sessionStorage: options.storage ?? null,
    allowedHosts: options.allowHosts ?? [],
    timeScale,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    log: {
      info: () => {},
      // Notices reach the terminal as events; a warning in the log would print them twice.
      warn: () => {},
      error: (message, error) =>
        process.stderr.write(`adbatch: ${message}: ${(error as Error | undefined)?.message ?? ''}\n`),
    },
  });
  return {
    core,
    library,
    call: (channel, ...args) => callHandler(core.dispatch, channel, args[0]),
  };
}
