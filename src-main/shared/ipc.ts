import type { z } from 'zod';
import { accountsChannels } from './contract/accounts.ts';
import { agentServerChannels, agentsChannels } from './contract/agents.ts';
import type { ChannelSpec } from './contract/channel.ts';
import { exportChannels, exportDesktopChannels } from './contract/export.ts';
import { storageChannels } from './contract/hosting.ts';
import { foldersChannels, ingestChannels } from './contract/ingest.ts';
import { brandsChannels, usageChannels } from './contract/ledger.ts';
import { productsChannels } from './contract/products.ts';
import { batchesChannels, jobsChannels } from './contract/queue.ts';
import { reshootChannels, reviewChannels, videosChannels } from './contract/review.ts';
import { catalogChannels, settingsChannels } from './contract/settings.ts';
import type { BatchProgress, ExportProgressView, ExportTally, QueueOwnerView } from './models.ts';
import type { AgentRequestState, ExportState } from './vocabulary.ts';

// The one contract between the renderer and main, whatever carries it (Electron IPC, the browser harness's
// WebSocket, a direct call from the CLI, MCP or a test). Channels are `domain:verb`, each written once in its
// domain's module under contract/ with the schema main checks its argument against (core/app/dispatch.ts)
// and the type of its answer; every other type here is inferred from them.

export const CONTRACT = {
  ...settingsChannels,
  ...catalogChannels,
  ...accountsChannels,
  ...brandsChannels,
  ...usageChannels,
  ...agentsChannels,
  ...agentServerChannels,
  ...ingestChannels,
  ...foldersChannels,
  ...batchesChannels,
  ...jobsChannels,
  ...reviewChannels,
  ...videosChannels,
  ...reshootChannels,
  ...productsChannels,
  ...storageChannels,
  ...exportChannels,
  ...exportDesktopChannels,
} satisfies Record<`${string}:${string}`, ChannelSpec>;

type Contract = typeof CONTRACT;
export type Channel = keyof Contract;
/** Every channel's name: what the Electron shell registers on ipcMain. */
export const CHANNELS = Object.keys(CONTRACT) as Channel[];
/** What a caller sends on a channel (before main's schema has trimmed, defaulted or transformed it). */
export type ArgsOf<C extends Channel> = z.input<Contract[C]['input']>;
/** What a handler is given: the argument as main's schema parsed it. */
export type ParsedArgsOf<C extends Channel> = z.output<Contract[C]['input']>;
/** What the channel answers. */
export type ResultOf<C extends Channel> = Exclude<Contract[C]['result'], undefined>;

export interface Events {
  /** At most about ten a second per batch. */
  'batches:progress': BatchProgress;
  /** A batch was created, finished, or needs the user. */
  'batches:changed': { id: string };
  /** Something about a batch the user should read (a pause's reason, a charge that differs from the price). */
  'batches:notice': { id: string; message: string };
  'accounts:changed': { id: string };
  /** This process started or stopped driving the queue (another process held it). */
  'queue:owner': QueueOwnerView;
  /** A scan's progress; `scanToken` is the one its front end gave `ingest:scan` (null when it gave none). */
  'ingest:progress': { scanToken: string | null; checked: number; total: number };
  /** An export's progress, at most about ten a second per export. */
  'export:progress': ExportProgressView;
  /**
   * An export ended (done, cancelled, stopped, failed, or interrupted as the app quit), with what it wrote:
   * a run that went to its end (`done`) may still have written nothing (exportDoneWords).
   */
  'export:changed': { id: string; state: ExportState } & ExportTally;
  /** A menu command for the renderer: go to a screen, or scan what the OS dialog returned. */
  'app:command': { command: 'new-batch' | 'settings' } | { command: 'scan'; inputs: string[] };
  /** An agent's request was made or decided. */
  'agents:changed': { id: string; state: AgentRequestState; client: string; name: string; credits: number };
}

export type EventName = keyof Events;

/** What every transport answers: a result, or an error the renderer can show as it is. */
export type Reply<C extends Channel> =
  | { ok: true; value: ResultOf<C> }
  | { ok: false; error: { code: string; message: string } };
