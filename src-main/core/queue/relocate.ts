import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError } from '../app/errors.ts';
import { batchFolder } from '../library.ts';
import { requireBatch } from './decisions.ts';
import type { QueueStore } from './store.ts';
import type { Batch } from './types.ts';

// A batch's library found again after it was renamed or moved (in Finder, to another drive): the batch
// takes the new place once every result it had saved is there, so nothing verified is downloaded twice. The
// user may point at the library or at the batch's own folder in it.

export async function relocateBatch(store: QueueStore, id: string, chosen: string): Promise<Batch> {
  const batch = requireBatch(store, id);
  const folder = batchFolder(batch);
  const libraryDir = basename(chosen) === folder ? dirname(chosen) : chosen;
  const saved = store.assets.ofBatch(batch.id).filter((asset) => asset.state === 'done');
  const missing: string[] = [];
  for (const asset of saved) {
    const found = await stat(join(libraryDir, asset.path)).catch(() => null);
    if (found?.size !== asset.bytes) missing.push(asset.path);
  }
  if (missing.length > 0) {
    throw new AppError(
      'conflict',
      `${missing.length} of the ${saved.length} results saved for this batch are not in ${join(libraryDir, folder)}: choose the folder that holds "${folder}", or the library around it.`,
    );
  }
  store.batches.setLibraryDir(batch.id, libraryDir);
  if (batch.status === 'paused' && batch.statusReason === 'library') store.batches.resume(batch.id);
  return store.batches.get(batch.id)!;
}
