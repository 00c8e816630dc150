// The `adbatch` command as built JavaScript: src-main/cli/main.ts and the export's worker thread bundled by
// esbuild into out/cli/ (ESM for Node 22, split into chunks so that what one command imports lazily, the MCP
// SDK, the sandbox's server, stays out of the others' start). Dependencies stay external and load from
// node_modules (better-sqlite3 and sharp are native). Source maps, so that a stack trace names the .ts files.
//
// `node scripts/build-cli.mjs` (npm run build:cli, npm install's prepare, npm run build) builds it;
// bin/adbatch.mjs asks bundleIsCurrent() at every start and builds it again when a source changed. Plain
// JavaScript that any Node since 20 can run (npm ci under an older Node runs prepare too); esbuild is
// imported only to build.

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'out', 'cli');
/** The bundle's entry, run by bin/adbatch.mjs. */
export const CLI_ENTRY = join(OUT_DIR, 'main.js');
const ENTRIES = {
  main: 'src-main/cli/main.ts',
  // Started by core/export/run-in-worker.ts, which looks for it beside itself as export-worker.js.
  'export-worker': 'src-main/core/export/export-worker.ts',
};
/** When the build began and the files it read, written last: its absence means no build finished. */
const STAMP = join(OUT_DIR, 'built-from.json');
/** What the bundle follows from besides the modules it bundles (esbuild's list): how it is built. */
const BUILD_FILES = ['tsconfig.json', 'scripts/build-cli.mjs'];
/** A file an earlier build wrote and this one did not is removed once this old (see removeOldFiles). */
const OLD_FILE_MS = 60 * 60 * 1000;

/**
 * Whether out/cli holds a bundle built from the sources as they are: every file the last build read is
 * still there, unchanged since that build began (about 190 stats, a few ms). A file no bundled module
 * imports cannot matter until one does, and that one then changes too. GUESS: modification times are
 * enough to tell (an edit, a checkout, a pull all set them to now); a file put back with an older time
 * (`cp -p`, `touch -d`) goes unseen until the next `npm run build:cli`, and one with a time still to come
 * (copied from a machine whose clock is ahead) is built again at every start until then. Where there are no
 * sources (a package that ships out/cli alone) the bundle is what there is.
 */
export function bundleIsCurrent() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return false;
  }
  if (!existsSync(join(ROOT, 'src-main'))) return true;
  return stamp.inputs.every(
    (file) => (statSync(join(ROOT, file), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) <= stamp.startedMs,
  );
}

/** Writes a file whole or not at all: a command starting meanwhile reads the old file or the new one. */
function writeAtomically(file, contents) {
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, contents);
  renameSync(part, file);
}

/**
 * Files of earlier builds this one did not write, once no command can still be running from them (a
 * command of an earlier build imports its chunks as it needs them, maybe long after it started).
 */
function removeOldFiles(written, now) {
  for (const name of readdirSync(OUT_DIR)) {
    const file = join(OUT_DIR, name);
    // Another build may rename its part file away between the listing and the stat.
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats && !written.has(file) && now - stats.mtimeMs > OLD_FILE_MS) rmSync(file, { force: true });
  }
}

/**
 * Builds out/cli. Safe to run in several processes at once (the CLI's tests start many commands together
 * after an edit): each file is replaced whole, chunks (named by their content) before the entries that
 * import them, the stamp last.
 */
export async function buildCli() {
  const { build } = await import('esbuild');
  // Before esbuild reads anything: a file saved during the build is newer than this, so seen as changed.
  const startedMs = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    // The maps point at the .ts files in the checkout; their text need not be copied into them.
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const entries = new Set(Object.keys(ENTRIES).map((name) => `${name}.js`));
  const isEntry = (file) => entries.has(basename(file));
  const files = [...result.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
  for (const file of files) writeAtomically(file.path, file.contents);
  const inputs = [...Object.keys(result.metafile.inputs), ...BUILD_FILES];
  writeAtomically(STAMP, `${JSON.stringify({ startedMs, inputs }, null, 2)}\n`);
  removeOldFiles(new Set([...files.map((file) => file.path), STAMP]), Date.now());
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
