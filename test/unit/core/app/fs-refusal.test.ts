import { mkdir, mkdtemp, open, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFsFailure } from '../../../../src-main/core/app/fs-refusal.ts';

// The one place file-system failures are put in words (issue 28, point 7), fed the errors Node really
// throws: each names the path and says what to do, and never shows the errno.

let dir: string;
let aFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-fs-refusal-'));
  aFile = join(dir, 'a-file');
  await writeFile(aFile, 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const failureOf = (attempt: () => Promise<unknown>) =>
  attempt().then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('describeFsFailure', () => {
  const cases: Array<{ what: string; attempt: () => Promise<unknown>; sentence: RegExp }> = [
    {
      what: 'a folder made where a file is',
      attempt: () => mkdir(aFile, { recursive: true }),
      sentence: /a-file is a file, not a folder: choose a folder/,
    },
    {
      what: 'a file made with no overwrite where one is',
      attempt: () => writeFile(aFile, 'y', { flag: 'wx' }),
      sentence: /a-file already exists: choose another name/,
    },
    {
      what: 'a path through a file',
      attempt: () => readdir(join(aFile, 'inside')),
      sentence: /a-file\/inside is not a folder: part of the path is a file/,
    },
    {
      what: 'a missing file',
      attempt: () => readFile(join(dir, 'gone.jpg')),
      sentence: /gone\.jpg does not exist: .*Check the path/,
    },
    {
      what: 'a folder read as a file',
      attempt: () => readFile(dir),
      sentence: /is a folder, not a file: name a file instead/,
    },
    {
      what: 'a name too long',
      attempt: () => open(join(dir, 'n'.repeat(300))),
      sentence: /The path is too long for this disk .*: choose a shorter folder or name/,
    },
    {
      what: 'a link that loops',
      attempt: async () => {
        await symlink(join(dir, 'loop'), join(dir, 'loop'));
        return readFile(join(dir, 'loop'));
      },
      sentence: /loop is a link that loops back on itself/,
    },
  ];
  for (const { what, attempt, sentence } of cases) {
    it(`says ${what} in words`, async () => {
      const words = describeFsFailure(await failureOf(attempt));
      expect(words).toMatch(sentence);
      expect(words).not.toMatch(/\bE[A-Z]{3,}\b/);
    });
  }

  it('reads a cause: a failure wrapped by the code that met it', async () => {
    const inner = await failureOf(() => readFile(join(dir, 'gone.jpg')));
    expect(describeFsFailure(new Error('reading the logo', { cause: inner }))).toMatch(
      /gone\.jpg does not exist/,
    );
  });

  it('leaves anything else to its own words', () => {
    expect(describeFsFailure(new Error('a bug'))).toBeNull();
    expect(describeFsFailure('EEXIST')).toBeNull();
  });
});
