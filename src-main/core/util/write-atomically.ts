import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeFolders } from './make-folders.ts';

/**
 * Writes a file under a unique `.part` name, then renames it into place: a reader finds the whole file or
 * none, and two writers of the same target never write into each other's bytes.
 */
export async function writeAtomically(
  target: string,
  write: (part: string) => Promise<unknown>,
): Promise<void> {
  await makeFolders(dirname(target));
  const part = `${target}.${randomBytes(6).toString('hex')}.part`;
  try {
    await write(part);
    await rename(part, target);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}
