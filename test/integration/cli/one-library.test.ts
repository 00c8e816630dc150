import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedLibrary } from '../../../src-main/core/app/library-choice.ts';
import { adbatch, sandboxRunArgs } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// One library per data folder, with real processes on the embedded sandbox and a real SQLite file: the first
// `adbatch run` gives the data folder its library; `scan` and a later `run` without --library use it and say
// so; a --library given once is used that once and does not move the folder's library. HOME is a temp
// folder, so the platform's default (~/Pictures/Adbatch) would show if anything fell back to it.

let dir: string;
let home: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-one-library-')));
  home = join(dir, 'home');
  await mkdir(join(home, 'Pictures'), { recursive: true });
  dataDir = join(dir, 'data');
  const { ADBATCH_LIBRARY: _ignored, ...rest } = process.env;
  env = { ...rest, HOME: home };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `adbatch run` of one product on the sandbox, from the temp home (not the checkout). */
function run(folders: string[], library?: string) {
  const args = sandboxRunArgs(folders, { dataDir, library: library ?? '' });
  // sandboxRunArgs always names a library: without one, the option goes.
  const at = args.indexOf('--library');
  if (!library) args.splice(at, 2);
  return adbatch(args, { cwd: home, env });
}

/** The batch folders a library holds (its own files, such as the ingest cache, left out). */
async function batchFolders(library: string): Promise<string[]> {
  return (await readdir(library)).filter((name) => !name.startsWith('.'));
}

describe('one library per data folder', () => {
  it('is the first run’s, then every command’s unless told otherwise, and each says which', async () => {
    const first = join(dir, 'first-library');
    const [autumn] = await makeProductFolders(join(dir, 'autumn'), 1);
    const ran = await run([autumn!], first);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(`adbatch: library: ${first} (as --library says)\n`);
    expect(ran.stdout).toContain(`Results: ${first}\n`);
    expect(rememberedLibrary(dataDir)).toBe(first);

    // scan without --library: the data folder's library keeps the thumbnails.
    // Other photos each time (the second and third of the fixtures): a product already shot is left out.
    const [, winter] = await makeProductFolders(join(dir, 'winter'), 2);
    const scanned = await adbatch(['scan', winter!, '--data-dir', dataDir], { cwd: home, env });
    expect(scanned.code, scanned.stderr).toBe(0);
    expect(scanned.stderr).toBe(`adbatch: library: ${first} (this data folder's library)\n`);

    // run without --library: the same library, said.
    const again = await run([winter!]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Results: ${first}\n`);
    expect(again.stderr).toContain(`adbatch: library: ${first} (this data folder's library)\n`);
    expect(await batchFolders(first)).toHaveLength(2);

    // --library once: used that once; the data folder keeps its own.
    const other = join(dir, 'other-library');
    const [, , spring] = await makeProductFolders(join(dir, 'spring'), 3);
    const elsewhere = await run([spring!], other);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(await batchFolders(other)).toHaveLength(1);
    expect(rememberedLibrary(dataDir)).toBe(first);

    // Nothing fell back to the platform's default library.
    expect(existsSync(join(home, 'Pictures', 'Adbatch'))).toBe(false);
  }, 120_000);
});
