import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, collected } from '../../support/cli.ts';

// bin/adbatch.mjs runs the CLI built into out/cli (scripts/build-cli.mjs) and builds it again whenever a
// file it was built from changed, so that a command always runs the sources as they are. Tried on a copy
// of the project of its own (the sources, the launcher, the build script; node_modules linked), whose
// sources a test may edit without touching the checkout's.

const ROOT = resolve(__dirname, '../../..');
let project: string;

beforeAll(async () => {
  project = join(await mkdtemp(join(tmpdir(), 'adbatch-built-cli-')), 'project');
  await mkdir(project);
  for (const path of ['bin', 'scripts/build-cli.mjs', 'src-main', 'package.json', 'tsconfig.json']) {
    await cp(join(ROOT, path), join(project, path), { recursive: true });
  }
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'));
});

afterAll(async () => {
  await rm(resolve(project, '..'), { recursive: true, force: true });
});

function launch(args: string[]): Promise<CliResult> {
  return collected(process.execPath, [join(project, 'bin', 'adbatch.mjs'), ...args], { cwd: project });
}

interface Stamp {
  startedMs: number;
  inputs: string[];
}

async function stamp(): Promise<Stamp> {
  return JSON.parse(await readFile(join(project, 'out', 'cli', 'built-from.json'), 'utf8'));
}

/** Replaces the program's description in the copy's src-main/cli/program.ts: a change `--help` shows. */
async function describeAs(description: string): Promise<void> {
  const file = join(project, 'src-main', 'cli', 'program.ts');
  const source = await readFile(file, 'utf8');
  const current = /\.description\('([^']*)'\)/.exec(source)![1]!;
  await writeFile(file, source.replace(current, description));
}

describe('the adbatch command, built', () => {
  it('is built at its first start and runs from out/cli', async () => {
    const { version } = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    const result = await launch(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
    expect(result.stderr).toBe('');
    const built = await stamp();
    expect(built.inputs).toEqual(expect.arrayContaining(['src-main/cli/main.ts', 'package.json']));
    expect(await readdir(join(project, 'out', 'cli'))).toEqual(
      expect.arrayContaining(['main.js', 'main.js.map', 'export-worker.js']),
    );
  }, 60_000);

  it('starts again without a build while nothing it was built from changed', async () => {
    const before = await stamp();
    const result = await launch(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(await stamp()).toEqual(before);
  }, 60_000);

  it('is built again once a source changed, and runs the change', async () => {
    const before = await stamp();
    await describeAs('Edited after the last build.');
    const result = await launch(['--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Edited after the last build.');
    expect((await stamp()).startedMs).toBeGreaterThan(before.startedMs);
  }, 60_000);

  it('runs the change in every command started at once after an edit, each file written whole', async () => {
    await describeAs('Edited again, then started four times at once.');
    const results = await Promise.all([1, 2, 3, 4].map(() => launch(['--help'])));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('Edited again, then started four times at once.');
    }
    const files = await readdir(join(project, 'out', 'cli'));
    expect(files.filter((file) => file.endsWith('.part'))).toEqual([]);
  }, 120_000);

  it('names the TypeScript file and line in a stack trace', async () => {
    const file = join(project, 'src-main', 'cli', 'main.ts');
    const source = await readFile(file, 'utf8');
    // A crash outside the command's own error handling, on line 1 of the source.
    await writeFile(file, `throw new Error('crashed on purpose');\n${source}`);
    const result = await launch(['--version']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: crashed on purpose');
    expect(result.stderr).toMatch(/src-main\/cli\/main\.ts:1:/);
    await writeFile(file, source);
  }, 60_000);
});
