import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdbatchFolderKind } from '../shared/models.ts';
import { makeFolders } from './util/make-folders.ts';

// What Adbatch wrote is never an input (issue 27): a folder Adbatch made for its own files carries a small
// hidden JSON file that says so, and survives the folder being moved or renamed, where the paths Adbatch
// remembers (the library, the data folder, the exports) no longer reach it. Written by Adbatch when it makes
// a library, a batch's folder of results, each folder inside that it writes results in (a product's, its
// thumbnails': one taken out of its batch's folder alone is still known), or an export folder; read by the
// scan (core/ingest), which never offers what is inside as products. The data folder's mark is its database.

const MARKS: Record<Exclude<AdbatchFolderKind, 'data'>, string> = {
  library: '.adbatch-library',
  batch: '.adbatch-batch',
  results: '.adbatch-results',
  export: '.adbatch-export',
};

/** The data folder is known by its database, which no other folder holds. */
const DATA_MARK = 'adbatch.db';

const NOTE = 'Adbatch wrote this folder: it never scans it, or anything in it, for products.';

/** The names a folder's entries are checked against, each with what it marks. */
export const MARK_NAMES: ReadonlyMap<string, AdbatchFolderKind> = new Map<string, AdbatchFolderKind>([
  ...Object.entries(MARKS).map(([kind, name]) => [name, kind as AdbatchFolderKind] as const),
  [DATA_MARK, 'data'],
]);

/** What a folder with these entries is to Adbatch, by its mark; null for a folder Adbatch did not mark. */
export function markedKind(names: Iterable<string>): AdbatchFolderKind | null {
  for (const name of names) {
    const kind = MARK_NAMES.get(name);
    if (kind) return kind;
  }
  return null;
}

/** What the folder is to Adbatch, read from its entries; null when it has no mark or cannot be read. */
export async function folderMark(dir: string): Promise<AdbatchFolderKind | null> {
  return markedKind(await readdir(dir).catch(() => []));
}

/** Marks a folder that exists as Adbatch's own; a mark already there is left as it is. */
export async function markFolder(dir: string, kind: Exclude<AdbatchFolderKind, 'data'>): Promise<void> {
  const body = `${JSON.stringify({ app: 'Adbatch', kind, note: NOTE })}\n`;
  try {
    await writeFile(join(dir, MARKS[kind]), body, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Makes the folder if it is not there, marked as Adbatch's own since Adbatch made it (a library: one the
 * designer chose that already holds other things is Adbatch's by path only, while it is a library).
 */
export async function makeOwnFolder(dir: string, kind: Exclude<AdbatchFolderKind, 'data'>): Promise<void> {
  if ((await stat(dir).catch(() => null))?.isDirectory()) return;
  await makeFolders(dir);
  await markFolder(dir, kind);
}
