import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  defaultLibraryDir as libraryIn,
  defaultDataDir as platformDataDir,
} from '../core/app/data-folder.ts';
import { chooseLibrary, type LibraryChoice, libraryLine } from '../core/app/library-choice.ts';

/** The data folder the app uses too (core/app/data-folder.ts), so both see the same batches. */
export function defaultDataDir(): string {
  return platformDataDir({ platform: process.platform, env: process.env, home: homedir() });
}

/** Where results land unless told otherwise: a folder in the user's Pictures, where designers look first. */
export function defaultLibraryDir(): string {
  const pictures = join(homedir(), 'Pictures');
  return libraryIn(existsSync(pictures) ? pictures : homedir(), process.env);
}

/** The library a command on `dataDir` uses: `--library` if given, else the data folder's (library-choice.ts). */
export function chooseCliLibrary(dataDir: string, flag: string | undefined): LibraryChoice {
  return chooseLibrary({ dataDir, flag, env: process.env, fallback: defaultLibraryDir() });
}

/** Says on stderr, in one line, which library a command that puts files in one uses. */
export function sayLibrary(choice: LibraryChoice): void {
  process.stderr.write(`adbatch: ${libraryLine(choice)}\n`);
}

/** The --library option's help: no fixed default, the data folder decides. */
export const LIBRARY_HELP =
  "where results are saved (default: the data folder's library, else ~/Pictures/Adbatch)";
