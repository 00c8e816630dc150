import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

// The caches' written files (the ingest cache's thumbnails and converted copies, Review's previews, the
// logos' copies) go to a `.part` renamed into place (write-atomically.ts). A write cut by a kill -9 or a
// power cut leaves its `.part` behind, and nothing ever reads it again: each cache is swept of them once
// per process, the first time it is used, so that they do not pile up run after run.

/**
 * GUESS: a `.part` older than this is no write under way. A thumbnail, a converted copy, a preview or a
 * logo's copy is written in seconds; another process writing into the same cache at the same time keeps
 * its young ones.
 */
const STALE_AFTER_MS = 60 * 60_000;

const swept = new Set<string>();

/**
 * Removes the `.part` files older than an hour in `root`'s `folders` and their subfolders (most are split
 * by the hash's first two characters), the first time this process asks for them; the number removed.
 * Never fails: a file it cannot read or remove is left.
 */
export async function sweepStaleParts(
  root: string,
  folders: readonly string[],
  now = Date.now(),
): Promise<number> {
  const key = [root, ...folders].join('\0');
  if (swept.has(key)) return 0;
  swept.add(key);
  let removed = 0;
  for (const written of folders) {
    const top = join(root, written);
    for (const entry of await readdir(top, { withFileTypes: true }).catch(() => [])) {
      const path = join(top, entry.name);
      const files = entry.isDirectory()
        ? (await readdir(path).catch(() => [])).map((name) => join(path, name))
        : [path];
      for (const file of files) {
        if (!file.endsWith('.part')) continue;
        const info = await stat(file).catch(() => null);
        if (!info?.isFile() || now - info.mtimeMs < STALE_AFTER_MS) continue;
        if (
          await rm(file).then(
            () => true,
            () => false,
          )
        )
          removed++;
      }
    }
  }
  return removed;
}
