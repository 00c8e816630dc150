import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertInsideReal,
  isWithin,
  makeRealFolder,
  OutsideFolderError,
  realPathOf,
} from '../../../../src-main/core/util/real-path.ts';

// Folders by where they really are, on real symbolic links in a temp folder.

let root: string;
let allowed: string;
let outside: string;

beforeAll(async () => {
  // Real, so that a temp folder under a link (macOS's /tmp) compares as the code's answers do.
  root = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-real-path-')));
  allowed = join(root, 'allowed');
  outside = join(root, 'outside');
  await mkdir(allowed);
  await mkdir(outside);
  await symlink(outside, join(allowed, 'out'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('folders by their real path', () => {
  it('tells a folder inside from one beside it, whatever its name starts with', () => {
    expect(isWithin(allowed, join(allowed, 'a', 'b'))).toBe(true);
    expect(isWithin(allowed, allowed)).toBe(true);
    expect(isWithin(allowed, join(allowed, '..foo'))).toBe(true);
    expect(isWithin(allowed, join(root, 'allowed-too'))).toBe(false);
    expect(isWithin(allowed, root)).toBe(false);
  });

  it('follows a link inside the folder out of it, and keeps names not made yet', async () => {
    expect(await realPathOf(join(allowed, 'out', 'new', 'deeper'))).toBe(join(outside, 'new', 'deeper'));
    expect(await realPathOf(join(allowed, 'new'))).toBe(join(allowed, 'new'));
  });

  it('makes a folder level by level, and refuses a level that is a link', async () => {
    await makeRealFolder(join(allowed, 'made', 'here'));
    expect(await readdir(join(allowed, 'made'))).toEqual(['here']);
    // A dangling link reads as a name not made yet: making the folder finds it, and refuses it.
    await symlink(join(outside, 'not-yet'), join(allowed, 'dangling'));
    const planned = await realPathOf(join(allowed, 'dangling', 'x'));
    expect(planned).toBe(join(allowed, 'dangling', 'x'));
    await expect(makeRealFolder(planned)).rejects.toThrow(OutsideFolderError);
    expect(await readdir(outside)).toEqual([]);
    await writeFile(join(allowed, 'a-file'), 'x');
    await expect(makeRealFolder(join(allowed, 'a-file', 'x'))).rejects.toMatchObject({
      code: 'ENOTDIR',
      path: join(allowed, 'a-file', 'x'),
    });
  });

  it('refuses a folder inside that leads out through a link', async () => {
    await expect(assertInsideReal(allowed, join(allowed, 'made'))).resolves.toBeUndefined();
    await expect(assertInsideReal(allowed, join(allowed, 'out'))).rejects.toThrow(
      `out leads out of ${allowed} through a link (to ${outside})`,
    );
  });
});
