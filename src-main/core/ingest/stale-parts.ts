import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

// The ingest cache's thumbnails and converted copies are written under a `.part` name and renamed into
// place (util/write-atomically.ts). A write cut by a kill -9 or a power cut leaves its `.part` behind, and
// nothing ever reads it again: each scan sweeps those of its cache, once per process, so that they do not
// pile up run after run.

/** The cache's folders of written files, each split into subfolders by the hash's first two characters. */
const WRITTEN = ['thumbnails', 'prepared'] as const;
/**
 * GUESS: a `.part` older than this is no write under way. A thumbnail or a converted copy is written in
 * seconds; another process scanning into the same cache at the same time keeps its young ones.
 */
const STALE_AFTER_MS = 60 * 60_000;

const swept = new Set<string>();

/**
 * Removes the cache's `.part` files older than an hour, the first time a scan of this process uses the
 * cache; the number removed. Never fails a scan: a file it cannot read or remove is left.
 */
export async function sweepStaleParts(cacheDir: string, now = Date.now()): Promise<number> {
  if (swept.has(cacheDir)) return 0;
  swept.add(cacheDir);
  let removed = 0;
  for (const written of WRITTEN) {
    const top = join(cacheDir, written);
    for (const shard of await readdir(top).catch(() => [])) {
      const folder = join(top, shard);
      for (const name of await readdir(folder).catch(() => [])) {
        if (!name.endsWith('.part')) continue;
        const file = join(folder, name);
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
