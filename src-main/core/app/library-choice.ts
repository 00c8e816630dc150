import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { tryReadStored, UnreadableError } from '../db/stored.ts';
import { makeFoldersSync } from '../util/make-folders.ts';

// One library per data folder. The data folder remembers the library its batches go to (`library.json`
// beside the database), set by the app's Settings or by the first command that opened the folder; every
// front end on that folder (the app, each `adbatch` command, `adbatch mcp`) then uses it unless told
// otherwise for that once (--library, ADBATCH_LIBRARY), and says which it uses. Without it, a command with
// no --library (`adbatch approve` of an agent's request) put the batch in ~/Pictures/Adbatch while the agent's
// server had been started with another library.
//
// A file of its own rather than a row: read before any database is opened (a scan in a folder nothing ran
// in opens none), and by the app before its core is built, to default its Settings.

export const LIBRARY_FILE = 'library.json';

const libraryFile = z.object({ libraryDir: z.string().min(1) });

/** Where a library choice came from, for the one line that says which library a command uses. */
export type LibrarySource = 'flag' | 'env' | 'remembered' | 'default';

export interface LibraryChoice {
  dir: string;
  source: LibrarySource;
}

/**
 * The library this data folder remembers; null when none is (nothing chose one yet, or the file cannot be
 * read: then the next choice is remembered over it, and the unreadable text is not a library to use). A data
 * folder that cannot be read at all is for opening its database to say, in the sentence it has for that.
 */
export function rememberedLibrary(dataDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, LIBRARY_FILE), 'utf8');
  } catch {
    return null;
  }
  const read = tryReadStored(libraryFile, text, join(dataDir, LIBRARY_FILE));
  return read instanceof UnreadableError ? null : read.libraryDir;
}

/**
 * The data folder remembers `libraryDir` from now on, written whole (a `.part` renamed into place) so that
 * another process reading it meanwhile finds the old choice or the new one. Synchronous: the CLI opens its
 * core synchronously, and this is one small file.
 */
export function rememberLibrary(dataDir: string, libraryDir: string): void {
  makeFoldersSync(dataDir);
  const target = join(dataDir, LIBRARY_FILE);
  const part = `${target}.${randomBytes(6).toString('hex')}.part`;
  try {
    writeFileSync(part, `${JSON.stringify({ libraryDir: resolve(libraryDir) }, null, 2)}\n`);
    renameSync(part, target);
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  }
}

/**
 * The library a command on `dataDir` uses: the one it was told (`flag`, then ADBATCH_LIBRARY), else the one
 * the data folder remembers, else `fallback` (the platform's default, ~/Pictures/Adbatch).
 */
export function chooseLibrary(options: {
  dataDir: string;
  flag?: string | undefined;
  env: NodeJS.ProcessEnv;
  fallback: string;
}): LibraryChoice {
  if (options.flag) return { dir: resolve(options.flag), source: 'flag' };
  if (options.env.ADBATCH_LIBRARY) return { dir: resolve(options.env.ADBATCH_LIBRARY), source: 'env' };
  const remembered = rememberedLibrary(options.dataDir);
  if (remembered) return { dir: remembered, source: 'remembered' };
  return { dir: resolve(options.fallback), source: 'default' };
}

const SOURCE_WORDS: Record<LibrarySource, string> = {
  flag: 'as --library says',
  env: 'as ADBATCH_LIBRARY says',
  remembered: "this data folder's library",
  default: 'the default library',
};

/** The line that says which library a command uses: `library: /x/Adbatch (this data folder's library)`. */
export function libraryLine(choice: LibraryChoice): string {
  return `library: ${choice.dir} (${SOURCE_WORDS[choice.source]})`;
}
