import { stat, statfs, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Whether results can be written in a library folder again, after a local fault paused a batch: the folder
// is there, its disk has room for what is owed, and a small file can be written and removed (a folder made
// writable again, a read-only volume remounted).

const PROBE_FILE = '.adbatch-write-check';
/** Room kept beyond what is owed: a disk filled to its last byte fails the next write of anything. */
const MARGIN_BYTES = 1_000_000;

export async function libraryWritable(libraryDir: string, owedBytes: number): Promise<boolean> {
  try {
    if (!(await stat(libraryDir)).isDirectory()) return false;
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
