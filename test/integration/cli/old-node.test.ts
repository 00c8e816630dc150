import { spawn, spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch, type CliResult, collected, sandboxRunArgs } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// The README's commands on a machine whose Node is older than package.json's engines (many designers'
// machines, and this one's /usr/bin/node): bin/project-node.mjs runs them under a newer Node, found on PATH
// or fetched from the npm registry, says so in one line, and no dependency's stack trace ever shows.
// Needs an older Node on PATH; CI, whose machine Node is older, sets ADBATCH_REQUIRE_OLD_NODE so it must run.

const ROOT = resolve(__dirname, '../../..');
const STACK_LINE = /\n\s+at /;

function parse(version: string): number[] {
  return version.replace(/^v/, '').split('.').map(Number);
}

function atLeast(version: number[], minimum: number[]): boolean {
  for (let i = 0; i < 3; i++) {
    if ((version[i] ?? 0) !== (minimum[i] ?? 0)) return (version[i] ?? 0) > (minimum[i] ?? 0);
  }
  return true;
}

interface FoundNode {
  file: string;
  version: string;
}

/** Every distinct `node` on PATH with its version. */
function nodesOnPath(): FoundNode[] {
  const seen = new Set<string>();
  const found: FoundNode[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, 'node');
    if (!existsSync(file) || seen.has(realpathSync(file))) continue;
    seen.add(realpathSync(file));
    const result = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (result.status === 0) found.push({ file, version: result.stdout.trim() });
  }
  return found;
}

let minimum: number[] = [];
let oldNode: FoundNode | undefined;
let dir: string;

beforeAll(async () => {
  const engines = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).engines.node as string;
  minimum = parse(engines.replace(/^>=\s*/, ''));
  oldNode = nodesOnPath().find((node) => !atLeast(parse(node.version), minimum));
  if (!oldNode) {
    const reason = `no Node older than ${engines} on PATH: nothing to try the launcher with`;
    if (process.env.ADBATCH_REQUIRE_OLD_NODE) throw new Error(reason);
    console.warn(`old-node.test: skipped: ${reason}`);
  }
  dir = await mkdtemp(join(tmpdir(), 'adbatch-old-node-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const launcherLine = (old: string) =>
  new RegExp(
    `^adbatch: this Node is ${old.replaceAll('.', '\\.')} and Adbatch needs ${minimum[0]}\\.${minimum[1]} or later: using Node (\\d+\\.\\d+\\.\\d+) \\(`,
  );

/** The old Node's folder first on PATH, as on the designer's machine. */
const oldFirst = (): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${dirname(oldNode!.file)}${delimiter}${process.env.PATH}`,
});

describe('the command line on a Node older than package.json asks for', () => {
  it('runs `adbatch --version` under a newer Node, saying so in one line', async ({ skip }) => {
    if (!oldNode) return skip();
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const result = await adbatch(['--version'], { node: oldNode.file, env: oldFirst() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const used = launcherLine(oldNode.version).exec(lines[0]!);
    expect(used, lines[0]).not.toBeNull();
    expect(atLeast(parse(used![1]!), minimum)).toBe(true);
  });

  it('shoots on the sandbox from start to end, with no stack trace', async ({ skip }) => {
    if (!oldNode) return skip();
    const photos = join(dir, 'photos');
    await makeProductFolders(photos, 2);
    const where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
    const result = await adbatch(sandboxRunArgs([photos], where), { node: oldNode.file, env: oldFirst() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toMatch(launcherLine(oldNode.version));
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.stdout).toMatch(/Batch b_[0-9a-f]+ started/);
    expect(result.stdout).toContain(`Results: ${where.library}`);
  }, 120_000);

  it('starts `npm run app:web`, which prints its URL and answers there, on 127.0.0.1', async ({ skip }) => {
    if (!oldNode) return skip();
    // Its own process group, so that the stop reaches npm, the launcher and the server alike, as Ctrl+C does.
    const child = spawn('npm', ['run', 'app:web', '--', '--throwaway'], {
      cwd: ROOT,
      env: oldFirst(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
      });
    }
    // 'close': once every process of the group that holds its output (npm, the launcher, the server) ended.
    let closed = false;
    const exited = new Promise<void>((done) =>
      child.once('close', () => {
        closed = true;
        done();
      }),
    );
    /** The first match in what was printed so far or as soon as it is, whatever chunks it came in. */
    const printed = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((found, failed) => {
        const look = () => {
          const match = pattern.exec(output);
          if (!match) return false;
          child.stdout.off('data', look);
          child.stderr.off('data', look);
          found(match);
          return true;
        };
        if (look()) return;
        // Added after the collecting listeners, so the output looked at holds the chunk that woke the look.
        child.stdout.on('data', look);
        child.stderr.on('data', look);
        void exited.then(() => failed(new Error(`npm run app:web exited:\n${output}`)));
      });
    try {
      const [, url] = await printed(/Adbatch in your browser: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/);
      expect(output).toMatch(new RegExp(launcherLine(oldNode.version).source.slice(1), 'm'));
      expect(output).not.toMatch(STACK_LINE);
      const [, dataDir] = await printed(/Data folder: (\S+) \(throwaway/);
      const page = await fetch(url!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      // The throwaway data folder goes with it.
      expect(existsSync(dataDir!), output).toBe(false);
    } finally {
      // A failure on the way leaves nothing running: npm may have ended before the server it started.
      if (!closed) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 180_000);

  it('fetches a newer Node from the npm registry when none is on PATH, once', async ({ skip }) => {
    if (!oldNode) return skip();
    const project = await launcherProject('project');
    // As npm 12 will by default: a dependency's install script runs only where allowScripts lets it, and the
    // `node` package's puts the binary in place.
    const env = { ...withoutNewerNode(), npm_config_strict_allow_scripts: 'true' };
    const launch = () => printNodeVersion(project, env);

    const first = await launch();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.trimEnd().split('\n')).toEqual([
      `adbatch: this Node is ${oldNode.version} and Adbatch needs ${minimum[0]}.${minimum[1]} or later, and none is on PATH: fetching node@${minimum[0]} from the npm registry into .ci/.node (once)`,
    ]);
    expect(atLeast(parse(first.stdout.trim()), minimum)).toBe(true);
    expect(existsSync(join(project, '.ci', '.node', 'node_modules', '.bin', 'node'))).toBe(true);

    const second = await launch();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(launcherLine(oldNode.version)),
    ]);
    expect(second.stderr).toContain('(.ci/.node/node_modules/.bin/node)');
    expect(second.stdout.trim()).toBe(first.stdout.trim());
  }, 180_000);

  it('asks a Node it found before for its version no more, while that binary is unchanged', async ({
    skip,
  }) => {
    if (!oldNode) return skip();
    const project = await launcherProject('known-versions');
    const first = await printNodeVersion(project, oldFirst());
    expect(first.code, first.stderr).toBe(0);
    const found = launcherLine(oldNode.version).exec(first.stderr)![1]!;
    const file = join(project, '.ci', '.node', 'versions.json');
    type Known = Record<string, { size: number; mtimeMs: number; version: number[] }>;
    const known = JSON.parse(await readFile(file, 'utf8')) as Known;
    const [binary, kept] = Object.entries(known).find(([, entry]) => entry.version.join('.') === found)!;

    // A version no Node has: the launcher can only say it if it took the kept answer without asking.
    await writeFile(file, JSON.stringify({ ...known, [binary]: { ...kept, version: [99, 0, 0] } }));
    const second = await printNodeVersion(project, oldFirst());
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(': using Node 99.0.0 (');

    // Kept for that binary only: one of another size (an upgrade) is asked again.
    await writeFile(
      file,
      JSON.stringify({ ...known, [binary]: { ...kept, size: kept.size + 1, version: [99, 0, 0] } }),
    );
    const third = await printNodeVersion(project, oldFirst());
    expect(third.code, third.stderr).toBe(0);
    expect(launcherLine(oldNode.version).exec(third.stderr)![1]).toBe(found);
  }, 60_000);

  it("says in one line why a fetch failed, in npm's words, and what to run", async ({ skip }) => {
    if (!oldNode) return skip();
    const project = await launcherProject('unreachable-registry');
    // A registry that has no package at all.
    const registry = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    });
    await new Promise<void>((listening) => registry.listen(0, '127.0.0.1', listening));
    const { port } = registry.address() as AddressInfo;
    try {
      const result = await printNodeVersion(project, {
        ...withoutNewerNode(),
        npm_config_registry: `http://127.0.0.1:${port}/`,
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(
        `adbatch: fetching node@${minimum[0]} failed (npm: 404 Not Found - GET http://127.0.0.1:${port}/node - Not found); install Node ${minimum[0]} from https://nodejs.org or run: npm install --prefix .ci/.node node@${minimum[0]}`,
      );
    } finally {
      await new Promise((closed) => registry.close(closed));
    }
  }, 60_000);
});

/** A project of its own with the launcher, so a Node is fetched into its .ci/.node, not the repository's. */
async function launcherProject(name: string): Promise<string> {
  const project = join(dir, name);
  await mkdir(join(project, 'bin'), { recursive: true });
  for (const file of ['project-node.mjs', 'with-project-node.mjs']) {
    await copyFile(join(ROOT, 'bin', file), join(project, 'bin', file));
  }
  await copyFile(join(ROOT, 'package.json'), join(project, 'package.json'));
  // Dependencies count as installed (npm writes this file last), so only the Node is fetched.
  await mkdir(join(project, 'node_modules'));
  await writeFile(join(project, 'node_modules', '.package-lock.json'), '{}');
  return project;
}

/** This environment without the folders of the Nodes new enough on PATH: only an older one is left. */
function withoutNewerNode(): NodeJS.ProcessEnv {
  const newer = nodesOnPath().filter((node) => atLeast(parse(node.version), minimum));
  return {
    ...process.env,
    PATH: (process.env.PATH ?? '')
      .split(delimiter)
      .filter((entry) => !newer.some((node) => dirname(node.file) === entry))
      .join(delimiter),
  };
}

/** `node -p process.versions.node` through the project's launcher, started by the old Node. */
function printNodeVersion(project: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return collected(
    oldNode!.file,
    [join(project, 'bin', 'with-project-node.mjs'), 'node', '-p', 'process.versions.node'],
    { env, cwd: project },
  );
}
