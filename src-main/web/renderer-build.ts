import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RENDERER_DIR } from './server.ts';

// `npm run app:web` serves the renderer's browser build (out/harness). It is built again before the server
// starts whenever a file it is built from is newer than it (an edit, a pull), and only then: a start costs no
// build when nothing changed, and a test that starts the server never rebuilds the files other tests serve.

const REPO = join(RENDERER_DIR, '..', '..');
/** What the build reads besides src-renderer: how it is built. */
const BUILD_FILES = ['electron.vite.config.ts', 'package.json'];

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether out/harness was built after every file it is built from changed. */
export function rendererBuildIsCurrent(): boolean {
  const built = statSync(join(RENDERER_DIR, 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return false;
  const sources = Math.max(
    newestIn(join(REPO, 'src-renderer')),
    ...BUILD_FILES.map((file) => statSync(join(REPO, file)).mtimeMs),
  );
  return sources <= built;
}

/** `npm run build:harness`, its output on this terminal; throws when it fails. */
export function buildRenderer(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build:harness'], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error('The browser build failed (npm run build:harness): see above.');
}
