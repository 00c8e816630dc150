import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { QueueStore } from '../../src-main/core/queue/store.ts';

/** Every file under `dir`, recursively. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Checks that every downloaded result of the batch is on disk, complete, and what it claims to be. */
export async function verifyDownloads(store: QueueStore, batchId: string): Promise<number> {
  const batch = store.batches.get(batchId)!;
  let verified = 0;
  for (const asset of store.assets.ofBatch(batchId)) {
    if (asset.state !== 'done') continue;
    const file = join(batch.libraryDir, asset.path);
    const bytes = await readFile(file);
    if (bytes.length !== asset.bytes || (await stat(file)).size !== asset.bytes)
      throw new Error(`${file}: wrong size`);
    if (createHash('sha256').update(bytes).digest('hex') !== asset.sha256)
      throw new Error(`${file}: wrong sha256`);
    if (asset.kind === 'video') {
      if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') throw new Error(`${file}: not an MP4`);
    } else {
      await sharp(bytes, { failOn: 'error' }).stats();
    }
    verified++;
  }
  return verified;
}
