import { join } from 'node:path';
import type { Product } from './queue/types.ts';

// Where results land: <library>/<batch folder>/<product folder>/... Folder names are readable (the batch and
// product names) and safe on every platform.

/** Names Windows reserves, alone or before an extension (`NUL.txt` is as reserved as `NUL`). */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(?=\.|$)/i;

export function safeName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '-')
    .replace(/\s+/g, ' ');
  // At most 80 UTF-16 units (well under 255 bytes of UTF-8), cut between whole characters (never half an
  // emoji), then trimmed: Windows refuses a trailing space or dot.
  let cut = '';
  for (const character of cleaned) {
    if (cut.length + character.length > 80) break;
    cut += character;
  }
  cut = cut.replace(/^[\s.]+|[\s.]+$/g, '');
  if (!cut) return 'untitled';
  return cut.replace(RESERVED, '$1-');
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
