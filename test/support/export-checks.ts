import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under `root`, as relative paths with `/`, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** Each file's inode and modification time: equal before and after means nothing was written. */
export async function fileStamps(root: string): Promise<Record<string, string>> {
  const stamps: Record<string, string> = {};
  for (const path of await listFiles(root)) {
    const stats = await stat(join(root, path));
    stamps[path] = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
  }
  return stamps;
}

export async function sha256Of(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
