import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFolders, makeFoldersSync } from '../../../../src-main/core/util/make-folders.ts';

// `mkdir -p` that always answers: nested folders made, a file in the way refused with mkdir's own EEXIST,
// two callers racing for one path both satisfied, and /proc (whose children Node's recursive mkdir asks
// for ever, at 100 % CPU) answered at once as a place that takes no new folders.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-make-folders-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const onProcfs = existsSync('/proc/self/status');

describe.each([
  ['makeFolders', (path: string) => makeFolders(path)],
  ['makeFoldersSync', async (path: string) => makeFoldersSync(path)],
])('%s', (name, make) => {
  it('makes every missing level, and is content with a folder already there', async () => {
    const deep = join(dir, name, 'a', 'b', 'c');
    await make(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await make(deep);
    await make(join(dir, name, 'a'));
  });

  it('refuses a file where a folder is wanted, with the code fs-refusal words', async () => {
    const file = join(dir, `${name}-file`);
    await writeFile(file, 'x');
    await expect(make(file)).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(make(join(file, 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(!onProcfs)('answers at once under /proc: it takes no new folders', async () => {
    await expect(make('/proc/adbatch-no-such/x')).rejects.toMatchObject({
      code: 'EPERM',
      path: '/proc/adbatch-no-such',
      syscall: 'mkdir',
    });
  });
});

it('two callers making one path at once both get it', async () => {
  const deep = join(dir, 'race', 'x', 'y', 'z');
  await Promise.all(Array.from({ length: 8 }, () => makeFolders(deep)));
  expect(statSync(deep).isDirectory()).toBe(true);
});
