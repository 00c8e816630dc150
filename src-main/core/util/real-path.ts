import { lstat, mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// Folders compared by where they really are. A folder is "inside" another only when its real path (every
// symbolic link resolved) is: a link inside an allowed folder that points out of it leads out, and what is
// written through it lands outside (issue 30: an agent's export was written outside the folder the user
// allowed, through such a link).

/** A folder that leads out of the one it must stay in (through a link), or became a link meanwhile. */
export class OutsideFolderError extends Error {
  override name = 'OutsideFolderError';
}

/** Whether `path` is `root` or inside it; both absolute, compared as spelled (give real paths). */
export function isWithin(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/**
 * Where `path` really is: its real path, or, while its last levels do not exist yet, its nearest existing
 * folder's real path with those names after it (a name not made yet is no link). A dangling link is such a
 * name too: making the folder then finds the link there, and refuses it (makeRealFolder).
 */
export async function realPathOf(path: string): Promise<string> {
  const tail: string[] = [];
  for (let existing = resolve(path); ; existing = dirname(existing)) {
    try {
      return join(await realpath(existing), ...tail);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(existing) === existing) throw error;
      tail.unshift(basename(existing));
    }
  }
}

/**
 * Makes `folder` (a real path, as realPathOf answers) one level at a time, and refuses when a level is a
 * link or no folder (made by someone between the check and now), or when the folder's real path is not
 * `folder` once made. What stays possible: a level swapped for a link after this returns and before a file
 * is written there; the export checks each file's folder again before writing it (assertInsideReal), which
 * narrows that to the moment between its check and its write.
 */
export async function makeRealFolder(folder: string): Promise<void> {
  const levels: string[] = [];
  for (let level = folder; dirname(level) !== level; level = dirname(level)) levels.unshift(level);
  for (const level of levels) {
    try {
      await mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stats = await lstat(level);
    if (stats.isSymbolicLink()) throw new OutsideFolderError(`${level} is a link.`);
    if (!stats.isDirectory()) throw fileInTheWay(level, folder);
  }
  const real = await realpath(folder);
  if (real !== folder) throw new OutsideFolderError(`${folder} leads to ${real} through a link.`);
}

/**
 * A file where a folder must be, as the error mkdir itself gives (so core/app/fs-refusal.ts says it in
 * words): the folder itself a file (EEXIST), or a file on the way to it (ENOTDIR, at the folder asked for).
 */
function fileInTheWay(level: string, folder: string): NodeJS.ErrnoException {
  const atTheEnd = level === folder;
  return Object.assign(new Error(`${atTheEnd ? level : folder}: a file is in the way`), {
    code: atTheEnd ? 'EEXIST' : 'ENOTDIR',
    path: atTheEnd ? level : folder,
    syscall: 'mkdir',
  });
}

/**
 * Refuses when `folder` (inside `root`, made or not yet) really lies outside `root`'s real path, through a
 * link: asked before a folder is made (mkdir -p would follow the link and make folders outside) and again
 * after, before a file is written in it.
 */
export async function assertInsideReal(root: string, folder: string): Promise<void> {
  const [realRoot, realFolder] = await Promise.all([realPathOf(root), realPathOf(folder)]);
  if (!isWithin(realRoot, realFolder)) {
    throw new OutsideFolderError(
      `${relative(root, folder) || folder} leads out of ${root} through a link (to ${realFolder}): nothing is written there.`,
    );
  }
}
