import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFolders } from '../../../../src-main/core/ingest/folder-browser.ts';

// The folder browser of the app in a browser shows the user's home and what is in it, never above it: not
// by a path, not through a link (issue 31, point 1).

let home: string;
let outside: string;

beforeAll(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-browse-home-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-browse-outside-')));
  for (const folder of ['Shoots/Spring 10', 'Shoots/Spring 9', 'Shoots/.cache', 'Pictures']) {
    await mkdir(join(home, folder), { recursive: true });
  }
  await writeFile(join(home, 'Shoots', 'notes.txt'), 'not a folder');
  await symlink(outside, join(home, 'Shoots', 'Out'));
  await symlink(join(home, 'Pictures'), join(home, 'Shoots', 'Pictures link'));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('listFolders', () => {
  it('starts at the home, with no way above it', async () => {
    const listing = await listFolders(home);
    expect(listing).toEqual({
      path: home,
      parent: null,
      folders: [
        { name: 'Pictures', path: join(home, 'Pictures') },
        { name: 'Shoots', path: join(home, 'Shoots') },
      ],
    });
  });

  it('lists the folders inside in the order a person reads them, without hidden ones, files or links out', async () => {
    const listing = await listFolders(home, join(home, 'Shoots'));
    expect(listing.parent).toBe(home);
    expect(listing.folders.map((folder) => folder.name)).toEqual(['Pictures link', 'Spring 9', 'Spring 10']);
  });

  it('refuses a folder above the home, and one reached through a link out of it, saying what to do', async () => {
    for (const path of [outside, join(home, '..'), join(home, 'Shoots', 'Out')]) {
      await expect(listFolders(home, path)).rejects.toThrow(
        /is outside your home folder .*: the folder browser shows only folders in it\. Type the path/,
      );
    }
  });

  it('says so of a path that is not there or not a folder', async () => {
    await expect(listFolders(home, join(home, 'Gone'))).rejects.toThrow('does not exist');
    await expect(listFolders(home, join(home, 'Shoots', 'notes.txt'))).rejects.toThrow(
      'is a file, not a folder',
    );
  });
});
