import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { processAlive } from '../util/process-alive.ts';
import { assertInsideReal } from '../util/real-path.ts';

// An export writes each file to a `.part` beside it, then gives it its name (place-file.ts). The `.part`
// is this writer's own: named after the planned path, the process and a random tag. Two exports writing
// one name into one folder at once (two of the designer's batches with one handle, the app and the CLI, an
// agent beside the designer) once shared one `.part` named after the path alone: one removed or replaced
// the other's half-written bytes, and the other failed with the system's words (EEXIST, ENOENT) or placed
// bytes that were not the ones it reported.
//
// What a killed writer left is removed before a run writes (and when an interrupted export is discarded):
// the `.part`s of the planned paths whose process is gone, or that no one has written to for an hour.

/**
 * GUESS: a `.part` untouched this long is no write under way, whatever process its name gives (after a
 * restart, another program may have the pid of a writer killed before it). A write adds bytes as it goes,
 * a video's transcode included, so an hour without one is far past any pause.
 */
const STALE_AFTER_MS = 60 * 60_000;

/**
 * A `.part`'s name: the planned path's hash, then its writer (`pid-tag`); the hash alone in the names
 * written before writers were named.
 */
const PART_NAME = /^\.([0-9a-f]{16})(?:\.(\d+)-[0-9a-z]+)?\.part$/;

const pathHash = (plannedPath: string) => createHash('sha256').update(plannedPath).digest('hex').slice(0, 16);

/**
 * A new `.part` for a planned file, this writer's alone: hidden, in the file's folder. `pid` is the
 * writer's process (another one's only in tests, for what a killed process left).
 */
export function newPartPath(root: string, plannedPath: string, pid = process.pid): string {
  const tag = `${threadId.toString(36)}${randomBytes(6).toString('hex')}`;
  return join(root, dirname(plannedPath), `.${pathHash(plannedPath)}.${pid}-${tag}.part`);
}

/**
 * Removes the `.part`s of these planned paths that no writer will finish: a process's that is gone, one
 * untouched for an hour, one named by the path alone (written before writers were named). Another live
 * export's stay. Never follows a link (a link under a `.part`'s name is removed as one), never looks
 * through a folder that leads out of `root`, and fails on nothing: what it cannot read or remove is left.
 */
export async function removeStaleParts(
  root: string,
  plannedPaths: readonly string[],
  now = Date.now(),
): Promise<void> {
  const hashesByFolder = new Map<string, Set<string>>();
  for (const plannedPath of plannedPaths) {
    const folder = join(root, dirname(plannedPath));
    const hashes = hashesByFolder.get(folder) ?? new Set<string>();
    hashes.add(pathHash(plannedPath));
    hashesByFolder.set(folder, hashes);
  }
  await Promise.all(
    [...hashesByFolder].map(async ([folder, hashes]) => {
      const inside = await assertInsideReal(root, folder).then(
        () => true,
        () => false,
      );
      if (!inside) return;
      for (const name of await readdir(folder).catch(() => [])) {
        const match = PART_NAME.exec(name);
        if (!match || !hashes.has(match[1]!)) continue;
        const file = join(folder, name);
        const pid = match[2] === undefined ? null : Number(match[2]);
        const info = await lstat(file).catch(() => null);
        if (!info) continue;
        const stale = pid === null || !processAlive(pid) || now - info.mtimeMs > STALE_AFTER_MS;
        if (stale) await rm(file, { force: true }).catch(() => {});
      }
    }),
  );
}
