import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { FolderListing } from '../../shared/models.ts';
import { AppError } from '../app/errors.ts';

// The folder browser of the app in a browser (`npm run app:web`), whose page cannot open the OS's dialog and
// whose dropped files carry no path. The page is served to this computer only and needs the run's token,
// but it is still a web page: it is shown the folders of the user's home and nothing above, so a page that
// got in cannot map the disk. A link is followed only where it stays in the home: one that leads out of it
// is not listed, and a path through one is refused.

/** Whether `real` is `home` or inside it (both real paths). */
function inside(home: string, real: string): boolean {
  const rel = relative(home, real);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function outsideHome(home: string, path: string): AppError {
  return new AppError(
    'refused',
    `${path} is outside your home folder (${home}): the folder browser shows only folders in it. Type the path in "Folder or file path" to add one elsewhere.`,
  );
}

/**
 * The folders inside `path` (`home` when none is given), a folder in `home`. A path that does not exist, is
 * not a folder or leads out of the home is refused in one sentence that says what to do.
 */
export async function listFolders(homeDir: string, path?: string): Promise<FolderListing> {
  const home = await realpath(homeDir);
  const asked = path === undefined ? home : resolve(home, path);
  let real: string;
  try {
    real = await realpath(asked);
  } catch {
    throw new AppError(
      'not_found',
      `${asked} does not exist: it was moved or renamed. Choose another folder.`,
    );
  }
  if (!inside(home, real)) throw outsideHome(home, asked);
  let entries: Dirent[];
  try {
    entries = await readdir(real, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new AppError('bad_request', `${asked} is a file, not a folder.`);
    throw error;
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) folders.push(entry.name);
    else if (entry.isSymbolicLink()) {
      // A link is listed when it leads to a folder in the home; one that leads out, or nowhere, is not.
      const target = await realpath(join(real, entry.name)).catch(() => null);
      if (target && inside(home, target) && (await stat(target)).isDirectory()) folders.push(entry.name);
    }
  }
  folders.sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }));
  return {
    path: real,
    parent: real === home ? null : dirname(real),
    folders: folders.map((name) => ({ name, path: join(real, name) })),
  };
}
