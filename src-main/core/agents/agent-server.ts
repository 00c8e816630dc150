import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { agentServerChannels } from '../../shared/contract/agents.ts';
import type { AgentServerView } from '../../shared/models.ts';
import type { AppContext } from '../app/context.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { LibraryChoice } from '../app/library-choice.ts';

// The app's MCP server over HTTP (issue 16), turned on and off in Settings and kept on across restarts. Core
// keeps the switch, the port and the token in the settings; the front end that can serve (the app, the
// browser harness) gives the starter (src-main/mcp/http.ts), which core never imports.
//
// GUESS: the first start takes any free port on 127.0.0.1 and keeps it, so the address given to clients
// stays the same; if it is taken at a later start, the server says so and stays off until turned on again
// (on another port). The token is kept in the preferences: it lets a local client ask, and every spend
// still waits for a person or the allowance.

export type AgentServerStarter = (options: {
  token: string;
  port: number;
  /** The folders agents may export into, read at each export: a change in Settings holds at once. */
  exportFolders: () => string[];
  /** The library batches go to (Settings' own, which the data folder remembers), read at each session. */
  library: () => LibraryChoice;
}) => Promise<{ url: string; port: number; close(): Promise<void> }>;

/** Where agents export unless the user chose another folder: in the library. GUESS (docs/agents.md). */
export const AGENT_EXPORTS = 'Agent exports';

export interface AgentServer {
  handlers: HandlersOf<typeof agentServerChannels>;
  /** Starts it if the settings say it was on. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const newToken = () => randomBytes(32).toString('base64url');

export function agentServer(ctx: AppContext, starter: AgentServerStarter | undefined): AgentServer {
  let running: { url: string; close(): Promise<void> } | null = null;
  let error: string | null = null;

  const saved = () => ctx.settings().agentServer;
  const save = (next: NonNullable<ReturnType<typeof saved>>) =>
    ctx.writeSettings({ ...ctx.settings(), agentServer: next });
  const exportFolder = () => saved()?.exportFolder ?? join(ctx.settings().libraryDir, AGENT_EXPORTS);

  const view = (): AgentServerView => ({
    available: starter !== undefined,
    enabled: saved()?.enabled ?? false,
    url: running?.url ?? null,
    token: saved()?.token ?? null,
    error,
    exportFolder: exportFolder(),
  });

  const start = async (port: number) => {
    const current = saved()!;
    try {
      const started = await starter!({
        token: current.token,
        port,
        exportFolders: () => [exportFolder()],
        library: () => ({ dir: ctx.settings().libraryDir, source: 'remembered' }),
      });
      running = started;
      error = null;
      save({ ...current, port: started.port });
      ctx.log.info(`the MCP server for agents listens at ${started.url}`);
    } catch (failure) {
      error =
        (failure as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? `Port ${port} is taken by another program: turn the server off and on to use another port (clients must be given the new address).`
          : `The server for agents could not start: ${(failure as Error).message}`;
      ctx.log.warn(error);
    }
  };

  const stopRunning = async () => {
    await running?.close();
    running = null;
  };

  return {
    handlers: {
      'agents:server': async () => view(),
      'agents:setServer': async ({ enabled, newToken: replace, exportFolder: folder }) => {
        if (!starter) return view();
        const current = saved();
        const kept = folder ?? current?.exportFolder;
        // Only the folder changed: read at each export, so the server runs on, its sessions kept.
        if (current && folder && !replace && enabled === current.enabled) {
          save({ ...current, exportFolder: folder });
          return view();
        }
        const token = !current || replace ? newToken() : current.token;
        // Turned on again after a failed start: any free port (the one kept was taken).
        const failedBefore = error !== null;
        await stopRunning();
        error = null;
        save({ enabled, port: current?.port ?? 0, token, ...(kept ? { exportFolder: kept } : {}) });
        if (enabled) await start(failedBefore ? 0 : (current?.port ?? 0));
        return view();
      },
    },
    async resume() {
      if (starter && saved()?.enabled) await start(saved()!.port);
    },
    stop: stopRunning,
  };
}
