import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  defaultLibraryDir as libraryIn,
  defaultDataDir as platformDataDir,
} from '../core/app/data-folder.ts';

/** The data folder the app uses too (core/app/data-folder.ts), so both see the same batches. */
export function defaultDataDir(): string {
  return platformDataDir({ platform: process.platform, env: process.env, home: homedir() });
}

/** Where results land unless told otherwise: a folder in the user's Pictures, where designers look first. */
export function defaultLibraryDir(): string {
  const pictures = join(homedir(), 'Pictures');
  return libraryIn(existsSync(pictures) ? pictures : homedir(), process.env);
}
