import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NameClaims, safeComponent } from '../util/safe-names.ts';
import { newPartPath, removeStaleParts } from './export-parts.ts';
import { placeFile, sameBytes } from './place-file.ts';
import type { PlacedBefore } from './placed-before.ts';
import type { FileOutcome } from './run.ts';

// Zips of a finished export, one per product or one per recipe, beside its files (kept, so that a re-run
// finds them and writes nothing). Each zip is streamed by yazl straight into its `.part` (entries read one
// at a time, never held whole), hashed on the way, then linked into place like any file (place-file.ts):
// never over a stranger's file, skipped when the same bytes are already there. Its bytes depend only on the
// files and the export's date (every entry's time), so the same export zipped again gives the same zip.
//
//
// A re-run whose files were all found unchanged finds its zips so too without zipping them again: what an
// earlier run placed under the zip's name is kept with the zip's key (its entries' names and sha256, the day,
// ZIP64 forced or not), and a zip whose key is the same and whose bytes are still those is left as it is.
// yazl's own version is not in the key: another yazl would lay the same entries out differently, but the
// zip already there holds exactly these files (a guess that this is what matters).
//
// ZIP64: yazl switches to it by itself where a size or an offset passes 0xfffffffe bytes (its README,
// "Regarding ZIP64 Support"; `Entry.prototype.useZip64Format` and the end-of-central-directory code in its
// index.js). Each entry is given its size up front, which its README says is how yazl knows.

export type ZipBy = 'per-product' | 'per-recipe';

export interface ZipPlan {
  /** The zip's name at the top of the export folder. */
  path: string;
  /** Paths relative to the export folder, in plan order: each is also its name in the zip. */
  entries: Array<{ path: string; bytes: number; sha256: string }>;
}

/** Already compressed: stored, not deflated again (deflating a JPEG costs time and gains nothing). */
const STORED = /\.(jpe?g|png|webp|avif|gif|mp4|mov|m4v|webm|zip)$/i;

/** The zips of these files (failed ones left out), named after their product or recipe, never after a file's name. */
export function planZips(
  files: ReadonlyArray<Pick<FileOutcome, 'planned' | 'relativePath' | 'status' | 'bytes' | 'sha256'>>,
  by: ZipBy,
  taken: readonly string[],
): ZipPlan[] {
  const claims = new NameClaims();
  for (const path of taken) claims.tryClaim(path, 'file');
  const groups = new Map<string, { name: string; entries: ZipPlan['entries'] }>();
  for (const file of files) {
    if (file.status === 'failed') continue;
    const { item, recipe } = file.planned;
    const key = by === 'per-product' ? item.productKey : recipe.id;
    const name = by === 'per-product' ? item.product : recipe.name;
    const group = groups.get(key) ?? { name, entries: [] };
    group.entries.push({ path: file.relativePath, bytes: file.bytes, sha256: file.sha256 });
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, group]) => ({
    path: claims.claim(safeComponent(`${group.name}.zip`, 'file'), key),
    entries: group.entries,
  }));
}

export interface PlacedZip {
  relativePath: string;
  status: 'written' | 'identical';
  bytes: number;
  sha256: string;
  /** What its bytes follow from, for the next run's `placedBefore`. */
  renderKey: string;
}

interface ZipOptions {
  date: string;
  signal?: AbortSignal;
  forceZip64?: boolean;
  /** What an earlier run placed under this zip's name, if any. */
  placedBefore?: PlacedBefore;
}

function zipKey(zip: ZipPlan, options: ZipOptions): string {
  return createHash('sha256')
    .update(JSON.stringify({ entries: zip.entries, date: options.date, zip64: options.forceZip64 === true }))
    .digest('hex');
}

/**
 * One zip in `root`: left as it is when an earlier run placed it from the same entries and it is unchanged,
 * else written (or found there already, byte for byte); answers where it is and whether it was written.
 */
export async function writeZip(root: string, zip: ZipPlan, options: ZipOptions): Promise<PlacedZip> {
  const renderKey = zipKey(zip, options);
  const before = options.placedBefore;
  if (
    before?.renderKey === renderKey &&
    (await sameBytes(join(root, before.relativePath), before.bytes, before.sha256).catch(() => false))
  ) {
    const { relativePath, bytes, sha256 } = before;
    return { relativePath, status: 'identical', bytes, sha256, renderKey };
  }
  // A zip a killed run left half-written goes first (another export's under way stays).
  await removeStaleParts(root, [zip.path]);
  const part = newPartPath(root, zip.path);
  // Local midnight of the export's day: zip times are local (MS-DOS) times.
  const mtime = new Date(`${options.date}T00:00:00`);
  // Imported when a zip is written, not when core starts (util/load-sharp.ts says why).
  const { ZipFile } = await import('yazl');
  const archive = new ZipFile();
  for (const entry of zip.entries) {
    archive.addReadStreamLazy(
      entry.path,
      {
        mtime,
        mode: 0o100644,
        compress: !STORED.test(entry.path),
        size: entry.bytes,
        forceZip64Format: options.forceZip64 === true,
      },
      (callback) => callback(null, createReadStream(join(root, entry.path))),
    );
  }
  archive.end({ forceZip64Format: options.forceZip64 === true, comment: '' });
  const hash = createHash('sha256');
  let bytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      archive.outputStream,
      hashing,
      // Made new: a link planted under its name is refused, not followed.
      createWriteStream(part, { flags: 'wx' }),
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
  const sha256 = hash.digest('hex');
  const placed = await placeFile({
    root,
    plannedPath: zip.path,
    content: { partReady: part },
    size: bytes,
    sha256,
    claims: new NameClaims(),
    owner: zip.path,
    ...(options.signal ? { signal: options.signal } : {}),
    // The zip an earlier export placed here: replaced, not piled up beside (`Shopify (2).zip`).
    ...(before ? { ours: before } : {}),
  });
  return { ...placed, bytes, sha256, renderKey };
}
