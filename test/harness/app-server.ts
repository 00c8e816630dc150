import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Core } from '../../src-main/core/create-core.ts';
import { RENDERER_DIR, startWebServer } from '../../src-main/web/server.ts';
import { type CoreHarness, startCoreHarness } from '../support/core-harness.ts';

// The browser harness: the app's web server (src-main/web/server.ts) on the test core (core-harness.ts: the
// embedded sandbox, keys sealed in memory, stand-ins for the OS dialogs that answer what a test says).

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export { RENDERER_DIR };
export const EXAMPLES_DIR = join(REPO, 'resources', 'examples');

export interface AppServer {
  /** The page to open, with this run's token: the only way in. */
  url: string;
  /** http://127.0.0.1:<port>, the only origin whose pages may open the socket. */
  origin: string;
  core: Core;
  harness: CoreHarness;
  close(): Promise<void>;
}

export async function startAppServer(
  options: {
    port?: number;
    dir?: string;
    pick?: string[];
    pickImage?: string;
    pickFolder?: string;
    timeScale?: number;
    /** Hosts allowed for the session though not public (a test's own photo host: `TEST_PHOTO_HOSTS`). */
    allowedHosts?: string[];
  } = {},
): Promise<AppServer> {
  const harness = await startCoreHarness({
    dir: options.dir,
    pick: options.pick ?? [EXAMPLES_DIR],
    pickImage: options.pickImage ?? null,
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    timeScale: options.timeScale,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const server = await startWebServer(
    harness.core,
    options.port === undefined ? {} : { port: options.port },
  ).catch(async (error: unknown) => {
    await harness.close();
    throw error;
  });
  return {
    url: server.url,
    origin: server.origin,
    core: harness.core,
    harness,
    async close() {
      await server.close();
      await harness.close();
    },
  };
}
