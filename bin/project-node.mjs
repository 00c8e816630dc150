// The README's commands go through this file, because many machines' Node is older than the one Adbatch
// needs (package.json's engines; undici 8 needs 22.19). On an older Node it finds a newer one on PATH or in
// .ci/.node, or fetches node@<major> from the npm registry into .ci/.node (as .ci/run always did), installs
// the dependencies once when node_modules has none, and runs the command under that Node, saying so in one
// line. Plain JavaScript with no dependency, so that the old Node can run it.
//
// Guess: a Node found on PATH or fetched is named `node` (`node.exe` on Windows); Windows is untried.

import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The same local prefix .ci/run installs into, so CI and a designer's machine share one Node. */
const PREFIX = join(ROOT, '.ci', '.node');
/** The versions of the Nodes found before (see versionOf). */
const KNOWN_VERSIONS = join(PREFIX, 'versions.json');
const WINDOWS = process.platform === 'win32';
const NODE_FILE = WINDOWS ? 'node.exe' : 'node';

function say(line) {
  process.stderr.write(`adbatch: ${line}\n`);
}

function fail(line) {
  say(line);
  process.exit(1);
}

function shown(path) {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The lowest Node package.json's `engines.node` (`>=X.Y[.Z]`) allows, as [major, minor, patch]. */
export function requiredNode() {
  const range = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (!match) throw new Error(`package.json's engines.node must read ">=X.Y", not "${range}"`);
  return [Number(match[1]), Number(match[2]), Number(match[3] || 0)];
}

function parseVersion(text) {
  return text
    .trim()
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

export function satisfies(version, minimum) {
  for (let i = 0; i < 3; i++) {
    if ((version[i] || 0) !== minimum[i]) return (version[i] || 0) > minimum[i];
  }
  return true;
}

function readKnownVersions() {
  try {
    return JSON.parse(readFileSync(KNOWN_VERSIONS, 'utf8'));
  } catch {
    return {};
  }
}

/** Kept for the next run when it can be; a folder that cannot be written only costs the probe again. */
function saveKnownVersions(known) {
  const part = `${KNOWN_VERSIONS}.${process.pid}.part`;
  try {
    mkdirSync(PREFIX, { recursive: true });
    writeFileSync(part, `${JSON.stringify(known, null, 2)}\n`);
    renameSync(part, KNOWN_VERSIONS);
  } catch {}
}

/**
 * The version of a Node found (`file`, the binary being `real`). Asking it (`node -p`) costs a process at
 * every command on a machine whose Node is older, so the answer is kept in .ci/.node/versions.json while
 * the binary's size and modification time stay the same (an upgrade replaces the file).
 */
function versionOf({ file, real }, known) {
  const { size, mtimeMs } = statSync(real);
  const kept = known[real];
  if (kept && kept.size === size && kept.mtimeMs === mtimeMs) return kept.version;
  const result = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 });
  if (result.status !== 0) return null;
  const version = parseVersion(result.stdout);
  known[real] = { size, mtimeMs, version };
  saveKnownVersions(known);
  return version;
}

/** Every distinct `node` on PATH, in PATH's order, then the one in the local prefix, with its real path. */
function candidates() {
  const seen = new Set();
  const found = [];
  const dirs = (process.env.PATH || '').split(delimiter).filter(Boolean);
  for (const file of [
    ...dirs.map((dir) => join(dir, NODE_FILE)),
    join(PREFIX, 'node_modules', '.bin', 'node'),
  ]) {
    if (!existsSync(file)) continue;
    let real;
    try {
      real = realpathSync(file);
    } catch {
      continue;
    }
    if (seen.has(real) || real === realpathSync(process.execPath)) continue;
    seen.add(real);
    found.push({ file, real });
  }
  return found;
}

function findNewer(minimum) {
  const known = readKnownVersions();
  for (const candidate of candidates()) {
    const version = versionOf(candidate, known);
    if (version && satisfies(version, minimum)) return { file: candidate.file, version };
  }
  return null;
}

function npm(args, options) {
  return spawnSync('npm', args, { ...options, shell: WINDOWS });
}

/**
 * The prefix's own package.json, which allows the `node` package's install script: that script is what puts
 * the binary in place, and npm is making dependencies' install scripts opt-in (`--strict-allow-scripts`
 * today, the default from npm 12), so without it the fetch would install a `node` with no Node in it.
 */
function allowNodeInstallScript() {
  const manifest = join(PREFIX, 'package.json');
  if (existsSync(manifest)) return;
  mkdirSync(PREFIX, { recursive: true });
  writeFileSync(manifest, `${JSON.stringify({ private: true, allowScripts: { node: true } }, null, 2)}\n`);
}

/**
 * The line of npm's error output that says why (`404 Not Found - GET …`, `FetchError: request to … failed`),
 * not its code, errno, stack or log path.
 */
function npmReason(stderr) {
  const said = stderr
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!)\s?/, '').trim())
    .filter((line) => line && !/^(code|errno|syscall|path) |^at |^A complete log of this run/.test(line));
  return said[0];
}

function fetchNode(minimum, why) {
  const spec = `node@${minimum[0]}`;
  say(`${why}, and none is on PATH: fetching ${spec} from the npm registry into ${shown(PREFIX)} (once)`);
  allowNodeInstallScript();
  const result = npm(
    ['install', '--prefix', PREFIX, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', spec],
    {
      encoding: 'utf8',
    },
  );
  const found = result.status === 0 ? findNewer(minimum) : null;
  if (found) return found;
  const npmSaid = result.error ? result.error.message : npmReason(result.stderr || '');
  return fail(
    `fetching ${spec} failed${npmSaid ? ` (npm: ${npmSaid})` : ''}; ` +
      `install Node ${minimum[0]} from https://nodejs.org or run: npm install --prefix ${shown(PREFIX)} ${spec}`,
  );
}

/**
 * null when this Node is new enough; otherwise the path of a newer Node, found or fetched, said in one line.
 * Exits with one line when none can be had.
 */
export function projectNode() {
  const minimum = requiredNode();
  const current = parseVersion(process.versions.node);
  if (satisfies(current, minimum)) return null;
  const wanted = minimum.slice(0, minimum[2] ? 3 : 2).join('.');
  const why = `this Node is ${process.versions.node} and Adbatch needs ${wanted} or later`;
  const found = findNewer(minimum);
  if (found) {
    say(`${why}: using Node ${found.version.join('.')} (${shown(found.file)})`);
    return found.file;
  }
  return fetchNode(minimum, why).file;
}

/** The environment a command runs in under `node` (null: this process's Node): that Node first on PATH. */
export function environmentFor(node) {
  if (!node) return process.env;
  // No loop to guard against: a Node is chosen only once its version was read and found new enough.
  return { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH || ''}` };
}

/** `npm ci` under the chosen Node when node_modules was never installed (a fresh clone). */
export function ensureDependencies(node) {
  // npm writes this file at the end of every install; its absence means no install finished here.
  if (existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) return;
  say('installing the dependencies first (npm ci, once)');
  const result = npm(['ci', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: environmentFor(node),
  });
  if (result.status !== 0) fail(`npm ci failed (exit ${result.status}); run it yourself to see why: npm ci`);
}

/** Runs the command with the terminal's streams and exits as it exits; Ctrl+C is left to the command. */
export function runAndExit(command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env, shell: WINDOWS && command === 'npm' });
  const forward = (signal) => child.kill(signal);
  // The terminal sends Ctrl+C to the command too: it decides when to end (a run stops cleanly).
  process.on('SIGINT', () => {});
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  child.once('error', (error) => fail(`could not start ${command}: ${error.message}`));
  child.once('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
