import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseLibrary,
  LIBRARY_FILE,
  libraryLine,
  rememberedLibrary,
  rememberLibrary,
} from '../../../../src-main/core/app/library-choice.ts';

// The library a data folder remembers, on real files: which one a command uses, and a damaged file.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-library-choice-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a data folder's library", () => {
  it('is what the command was told, else what the folder remembers, else the default', async () => {
    const data = join(dir, 'data');
    const fallback = join(dir, 'Pictures', 'Adbatch');
    const choose = (flag?: string, env: NodeJS.ProcessEnv = {}) =>
      chooseLibrary({ dataDir: data, flag, env, fallback });
    expect(choose()).toEqual({ dir: fallback, source: 'default' });
    rememberLibrary(data, join(dir, 'remembered'));
    expect(JSON.parse(await readFile(join(data, LIBRARY_FILE), 'utf8'))).toEqual({
      libraryDir: join(dir, 'remembered'),
    });
    expect(choose()).toEqual({ dir: join(dir, 'remembered'), source: 'remembered' });
    expect(choose(undefined, { ADBATCH_LIBRARY: join(dir, 'env') })).toEqual({
      dir: join(dir, 'env'),
      source: 'env',
    });
    expect(choose(join(dir, 'flag'), { ADBATCH_LIBRARY: join(dir, 'env') })).toEqual({
      dir: join(dir, 'flag'),
      source: 'flag',
    });
    expect(libraryLine(choose())).toBe(`library: ${join(dir, 'remembered')} (this data folder's library)`);
  });

  it('is none when its file cannot be read, so the next choice is remembered over it', async () => {
    const data = join(dir, 'damaged');
    rememberLibrary(data, join(dir, 'x'));
    await writeFile(join(data, LIBRARY_FILE), '{"libraryDir": 7}');
    expect(rememberedLibrary(data)).toBeNull();
    expect(rememberedLibrary(join(dir, 'never-used'))).toBeNull();
  });
});
