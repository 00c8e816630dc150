import { stat, statfs, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { makeOwnFolder, markFolder } from '../folder-marks.ts';
import type { LocalFault } from '../util/local-fault.ts';
import { makeFolders } from '../util/make-folders.ts';
import { mkdirBelow } from './download.ts';

// Whether a batch's results can be written where they belong. Before a download: the library folder is
// there (an empty one deleted is made again, a batch with nothing saved yet having nothing to lose; one on a
// drive that is gone is not), and the batch's folder is still in it once results were saved there (else
// they would be split between the old place and a new one). After a pause: the same, and the disk has room
// for what is owed and takes a small file (a folder made writable again, a volume remounted). A library
// Adbatch makes, each batch's folder and each folder of results in it carry Adbatch's mark
// (core/folder-marks.ts).

const PROBE_FILE = '.adbatch-write-check';
/** Room kept beyond what is owed: a disk filled to its last byte fails the next write of anything. */
const MARGIN_BYTES = 1_000_000;

export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

// Where drives are mounted (macOS, Linux): a library under one of these whose drive folder is missing is on
// a drive that is unplugged, not a folder to make. (A guess for Windows: a missing drive letter fails mkdir.)
const MOUNT_ROOTS = ['/Volumes', '/media', '/mnt', '/run/media'];

/** Whether the nearest folder of the path that exists is a place where drives are mounted. */
async function onMissingDrive(path: string): Promise<boolean> {
  let existing = dirname(path);
  while (!(await isDirectory(existing)) && dirname(existing) !== existing) existing = dirname(existing);
  return MOUNT_ROOTS.some((root) => existing === root || dirname(existing) === '/run/media');
}

/**
 * What stops a batch's results from going where they belong, or null. `batchDir` is the batch's folder in
 * the library; `saved` whether results of the batch were already verified there.
 */
export async function libraryFault(
  libraryDir: string,
  batchDir: string,
  saved: boolean,
): Promise<LocalFault | null> {
  if (!(await isDirectory(libraryDir))) {
    if (saved || (await onMissingDrive(libraryDir))) return { kind: 'gone', code: 'ENOENT' };
    await makeOwnFolder(libraryDir, 'library');
    return null;
  }
  const folder = join(libraryDir, batchDir);
  if (saved && !(await isDirectory(folder))) return { kind: 'batch_folder_gone', code: 'ENOENT', folder };
  return null;
}

/** Makes the batch's folder in the library, if it is not there yet, marked as Adbatch's own results. */
export async function markBatchFolder(libraryDir: string, batchDir: string): Promise<void> {
  const folder = join(libraryDir, batchDir);
  await makeFolders(folder);
  await markFolder(folder, 'batch');
}

/**
 * Makes the folders between a batch's folder and `dir` (where a result goes), each marked as Adbatch's own
 * results: a product's folder (or its thumbnails') taken out of its batch's folder alone is still known.
 */
export async function markResultFolders(batchFolder: string, dir: string): Promise<void> {
  await mkdirBelow(batchFolder, dir);
  for (let folder = dir; isBelow(batchFolder, folder); folder = dirname(folder)) {
    await markFolder(folder, 'results');
  }
}

function isBelow(root: string, path: string): boolean {
  const way = relative(root, path);
  return way !== '' && !way.startsWith('..') && !isAbsolute(way);
}

/**
 * Makes a batch's library and its folder again where they were (deleted, or put back empty), each marked as
 * Adbatch's own; false, making nothing, when the library is on a drive that is not connected.
 */
export async function remakeLibrary(libraryDir: string, batchDir: string): Promise<boolean> {
  if (!(await isDirectory(libraryDir))) {
    if (await onMissingDrive(libraryDir)) return false;
    await makeOwnFolder(libraryDir, 'library');
  }
  await markBatchFolder(libraryDir, batchDir);
  return true;
}

export async function libraryWritable(libraryDir: string, owedBytes: number): Promise<boolean> {
  try {
    if (!(await isDirectory(libraryDir))) return false;
    const { bavail, bsize } = await statfs(libraryDir);
    if (bavail * bsize < owedBytes + MARGIN_BYTES) return false;
    const probe = join(libraryDir, PROBE_FILE);
    await writeFile(probe, Buffer.alloc(64 * 1024));
    await unlink(probe);
    return true;
  } catch {
    return false;
  }
}
