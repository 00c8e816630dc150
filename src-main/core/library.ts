import { join } from 'node:path';
import type { Product } from './queue/types.ts';
import { safeComponent } from './util/safe-names.ts';

// Where results land: <library>/<batch folder>/<product folder>/... Folder names are readable (the batch and
// product names) and safe on every platform.

/**
 * A batch's or a product's name as a folder: made safe by the one rule (util/safe-names.ts) in the
 * library's own spelling, which names already on disk keep: `-` for a character no file system takes, runs
 * of white space as one space, at most 80 characters (a readable folder, and a path Windows still takes).
 */
export function safeName(name: string): string {
  // Control characters (tabs, line breaks) are the rule's to replace: only the other white space is folded.
  const spaced = name.replace(/(?:(?!\p{Cc})\s)+/gu, ' ');
  return safeComponent(spaced, 'folder', { replacement: '-', maxLength: 80 });
}

/** Ingest's thumbnails and converted copies, keyed by content hash, shared by every batch of the library. */
export function ingestCacheDir(libraryDir: string): string {
  return join(libraryDir, '.adbatch');
}

export function batchFolder(batch: { id: string; name: string }): string {
  return `${safeName(batch.name)} (${batch.id.slice(-6)})`;
}

export function productFolder(product: Pick<Product, 'name' | 'position'>): string {
  return `${String(product.position + 1).padStart(3, '0')} ${safeName(product.name)}`;
}
