import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chooseCliLibrary, defaultDataDir } from '../cli/paths.ts';
import { libraryLine } from '../core/app/library-choice.ts';
import { buildRenderer, rendererBuildIsCurrent } from './renderer-build.ts';
import { startWebServer } from './server.ts';
import { openWebCore } from './web-core.ts';

// `npm run app:web`: Adbatch in a browser on this computer, on the data folder and library the desktop app
// and the CLI use (so a restart keeps everything, and the demo's batch is there), or with --throwaway on a
// temporary one deleted when it stops. Only the printed URL gets in: it carries this run's token
// (server.ts). Run through bin/with-project-node.mjs, like every command the README gives, as `node --import
// tsx`, not the `tsx` command: that one stands between the terminal and this process and, when a loaded
// machine keeps this process from saying within 30 ms that it heard Ctrl+C, kills it (SIGKILL) before it
// can stop the engine and delete its throwaway folder (a CI run left the folder so).

const USAGE = `usage: npm run app:web [-- --throwaway] [-- --port <number>]
  --throwaway      a temporary data folder and library, deleted when it stops (nothing is kept)
  --port <number>  the port on 127.0.0.1 (default: any free one)`;

function fail(line: string): never {
  process.stderr.write(`adbatch: ${line}\n`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        throwaway: { type: 'boolean', default: false },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port ?? process.env.PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  fail(`--port must be a port number, not ${values.port}`);

if (!rendererBuildIsCurrent()) {
  process.stderr.write('adbatch: building the browser version first (npm run build:harness)\n');
  buildRenderer();
}

const throwaway = values.throwaway ? await mkdtemp(join(tmpdir(), 'adbatch-web-')) : null;
const dataDir = throwaway ? join(throwaway, 'data') : defaultDataDir();
// The library the app and the CLI use on this data folder (core/app/library-choice.ts), or a throwaway one.
const library = throwaway ? null : chooseCliLibrary(dataDir, undefined);
const libraryDir = library?.dir ?? join(dataDir, '..', 'library');
const web = await openWebCore({ dataDir, libraryDir, home: homedir() }).catch((error: Error) =>
  fail(error.message),
);
/**
 * The throwaway folder deleted, tried again a few times (a file still being written into it fails a pass);
 * said on stderr if it stays, never thrown: stopping goes on.
 */
async function removeThrowaway(): Promise<void> {
  if (!throwaway) return;
  await rm(throwaway, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(
    (error: Error) =>
      console.error(
        `The throwaway folder ${throwaway} could not be deleted (${error.message}): delete it by hand.`,
      ),
  );
}

const server = await startWebServer(web.core, { port }).catch(async (error: NodeJS.ErrnoException) => {
  await web.core.stop();
  await removeThrowaway();
  return fail(
    error.code === 'EADDRINUSE'
      ? `port ${port} on 127.0.0.1 is taken: choose another (-- --port <number>), or leave it out for any free one`
      : error.message,
  );
});

console.log(`Adbatch in your browser: ${server.url}`);
console.log('Open exactly this address: the token after # is what lets the page in.');
console.log(
  throwaway
    ? `Data folder: ${dataDir} (throwaway: deleted when this stops)`
    : `Data folder: ${dataDir} (the desktop app's and the command line's)`,
);
console.log(library ? libraryLine(library) : `library: ${libraryDir} (throwaway)`);
console.log('Ctrl+C stops it.');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  await web.core.stop();
  await removeThrowaway();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
