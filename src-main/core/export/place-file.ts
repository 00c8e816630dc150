import { constants } from 'node:fs';
import { copyFile, link, lstat, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256OfFile } from '../util/file-sha256.ts';
import { makeFolders } from '../util/make-folders.ts';
import { assertInsideReal } from '../util/real-path.ts';
import type { NameClaims } from '../util/safe-names.ts';
import { foldKey, withSuffix } from '../util/safe-names.ts';
import { newPartPath } from './export-parts.ts';

// A file put in place under its planned name without ever overwriting one this export did not write.
// The bytes go to a `.part` beside it, this writer's own (export-parts.ts), then take the name with a hard
// link, which fails when the name exists (a rename would replace it): so even a file that appeared a
// moment ago is safe, another export's among them. A name already taken by the same bytes (same size and
// sha256) is that file: nothing is written, which is what makes an export run twice into one folder write
// nothing the second time, and an interrupted one resume.
// A name taken by other bytes moves the file to ` (2)`, ` (3)`…; the same probing on a re-run lands on
// the same name again. One exception: the file an earlier export placed under that name (recorded in
// `export_files`) and still as it left it (size and sha256) is ours, and is replaced when its source
// changed, so a re-export leaves no ` (2)` beside it. A file of ours changed since is a stranger's now:
// kept, the new one beside it, and the caller says so (`keptChanged`). A file a channel reads by its name
// alone (Amazon's `HAT001.MAIN.jpg`: `exactName`) never goes beside: a ` (2)` would land nowhere, so a
// name taken by other bytes is a NameTakenError, and the file is not written.

/** The planned name is taken by another file, and the file is read by no other name (`exactName`). */
export class NameTakenError extends Error {
  override name = 'NameTakenError';
  constructor(
    readonly relativePath: string,
    /** The file there is one an earlier export wrote, changed since. */
    readonly changedOurs: boolean,
  ) {
    super(
      `${relativePath} is taken in the export folder by ${changedOurs ? 'a file Adbatch wrote and someone changed since (kept as it is)' : 'another file (kept as it is)'}, and the channel reads this file by that name alone: not written. Move that file away, or export into an empty folder.`,
    );
  }
}

/**
 * The bytes, a file to copy, or the `.part` the caller already wrote (a zip streamed into it, a video made
 * into it), made by `newPartPath`: it is placed, or removed.
 */
export type Content = { bytes: Buffer } | { copyFrom: string } | { partReady: string };

export interface Placed {
  relativePath: string;
  status: 'written' | 'identical';
  /** Our earlier file under the name, replaced by this one. */
  replaced?: true;
  /** Our earlier file under the name, changed since it was written: kept, this one went beside it. */
  keptChanged?: string;
}

/** What an earlier export placed under a planned name: its path and bytes then. */
export interface OursBefore {
  relativePath: string;
  bytes: number;
  sha256: string;
}

async function sizeOf(path: string): Promise<number | 'other' | null> {
  try {
    const stats = await lstat(path);
    return stats.isFile() ? stats.size : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether the file at `path` has these bytes (size first, then sha256). */
export async function sameBytes(path: string, size: number, sha256: string): Promise<boolean> {
  const existing = await sizeOf(path);
  return existing === size && (await sha256OfFile(path)) === sha256;
}

/** Link errors that mean the volume has no hard links (FAT, exFAT, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * Puts `content` (`size` bytes, `sha256`) at `plannedPath` under `root`, or beside it with a suffix.
 * `claims` keeps two files of one run off one name; `owner` is this file's claim.
 */
export async function placeFile(options: {
  root: string;
  plannedPath: string;
  content: Content;
  size: number;
  sha256: string;
  claims: NameClaims;
  owner: string;
  signal?: AbortSignal;
  /** The file an earlier export placed for this planned path, replaced if still as it left it. */
  ours?: OursBefore;
  /** Placed under its planned name or not at all (NameTakenError): a channel matches it by that name. */
  exactName?: boolean;
}): Promise<Placed> {
  const { root, plannedPath, claims, owner } = options;
  const slash = plannedPath.lastIndexOf('/');
  const folder = slash < 0 ? '' : plannedPath.slice(0, slash);
  const fileName = plannedPath.slice(slash + 1);
  // A folder inside the export that is a link out of it is refused, never made or written through (issue
  // 30); asked again once made, for a link put there meanwhile.
  await assertInsideReal(root, join(root, folder));
  await makeFolders(join(root, folder));
  await assertInsideReal(root, join(root, folder));
  const part = 'partReady' in options.content ? options.content.partReady : newPartPath(root, plannedPath);
  // Set before the first byte: a write cut short (a full disk, a cancel) leaves a .part to remove too.
  let partWritten = 'partReady' in options.content;
  let keptChanged: string | undefined;
  const writePart = async () => {
    if (partWritten) return;
    partWritten = true;
    // Made new, never opened if there (`wx`, COPYFILE_EXCL): a link planted under its name is not followed.
    if ('bytes' in options.content) await writeFile(part, options.content.bytes, { flag: 'wx' });
    else if ('copyFrom' in options.content)
      await copyFile(options.content.copyFrom, part, constants.COPYFILE_EXCL);
  };
  try {
    for (let count = 1; ; count++) {
      // Its name was taken (by a stranger's bytes, a file of this run, or a race): no other name will do.
      if (options.exactName && count > 1) throw new NameTakenError(plannedPath, keptChanged !== undefined);
      const candidate = `${folder ? `${folder}/` : ''}${withSuffix(fileName, count)}`;
      if (!claims.tryClaim(candidate, owner)) continue;
      const target = join(root, candidate);
      const existing = await sizeOf(target);
      if (existing !== null) {
        if (existing === options.size && (await sha256OfFile(target)) === options.sha256) {
          return { relativePath: candidate, status: 'identical' };
        }
        const ours = options.ours;
        if (ours && foldKey(ours.relativePath) === foldKey(candidate)) {
          if (await sameBytes(target, ours.bytes, ours.sha256)) {
            // Ours, as we left it: replaced in one rename, never a moment without a whole file.
            options.signal?.throwIfAborted();
            await writePart();
            options.signal?.throwIfAborted();
            await rename(part, target);
            partWritten = false;
            return { relativePath: candidate, status: 'written', replaced: true };
          }
          keptChanged = candidate;
        }
        continue;
      }
      options.signal?.throwIfAborted();
      await writePart();
      options.signal?.throwIfAborted();
      try {
        await link(part, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') {
          // Someone else took the name between the look and the link.
          if (await sameBytes(target, options.size, options.sha256))
            return { relativePath: candidate, status: 'identical' };
          continue;
        }
        if (!NO_LINKS.has(code)) throw error;
        // No hard links here: a rename, right after a look that found the name free.
        if ((await sizeOf(target)) !== null) continue;
        await rename(part, target);
        partWritten = false;
      }
      return { relativePath: candidate, status: 'written', ...(keptChanged ? { keptChanged } : {}) };
    }
  } finally {
    if (partWritten) await rm(part, { force: true });
  }
}
