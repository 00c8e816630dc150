import { realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AdbatchFolderKind } from '../../shared/models.ts';
import { MARK_NAMES } from '../folder-marks.ts';
import type { SkippedFile } from './types.ts';

// What Adbatch wrote is never an input (issue 27): the default library lives inside ~/Pictures, and dropping
// ~/Pictures once offered Adbatch's own results as products and paid to shoot them. A scan passes over, in
// one line each, the folders Adbatch wrote: by path (the library and every batch's, the data folder, what
// exports placed), and by the mark Adbatch leaves in a folder it makes (core/folder-marks.ts), which
// survives a move. Whichever folder above them is dropped, and when one of them, or a folder or photo
// inside one, is dropped itself.

/**
 * A path as the walk knows a folder it read: its real path (links resolved), its bytes spelled one to one
 * (latin1), so that a name which is not valid UTF-8 is still told apart; null when it does not exist.
 */
export async function realKey(path: string | Buffer): Promise<string | null> {
  try {
    return (await realpath(path, { encoding: 'buffer' })).toString('latin1');
  } catch {
    return null;
  }
}

/** A path Adbatch wrote: a folder (everything inside it too) or a single file (an export's, in a shared folder). */
export interface AdbatchPath {
  path: string;
  kind: AdbatchFolderKind;
}

const REASONS: Record<AdbatchFolderKind, string> = {
  library: "Adbatch's own library",
  batch: "Adbatch's own results (a batch's folder)",
  results: "Adbatch's own results (a product's folder)",
  export: 'an export Adbatch wrote',
  data: "Adbatch's own data folder",
};

/** The scan's line for a folder (or file) Adbatch wrote. */
export function adbatchSkip(file: string, kind: AdbatchFolderKind): SkippedFile {
  return { file, reason: REASONS[kind], adbatchFolder: kind };
}

export class AdbatchFolders {
  static readonly none = new AdbatchFolders(new Map());

  private constructor(private readonly byRealPath: ReadonlyMap<string, AdbatchFolderKind>) {}

  /** The paths that exist, by their real path (links resolved), spelled as the walk spells them. */
  static async of(paths: readonly AdbatchPath[]): Promise<AdbatchFolders> {
    const byRealPath = new Map<string, AdbatchFolderKind>();
    for (const { path, kind } of paths) {
      const real = await realKey(path);
      if (real !== null && !byRealPath.has(real)) byRealPath.set(real, kind);
    }
    return new AdbatchFolders(byRealPath);
  }

  /** What this real path is, when Adbatch wrote it. */
  at(realPath: string): AdbatchFolderKind | null {
    return this.byRealPath.get(realPath) ?? null;
  }

  /** What this real path is or lies in, by path: a dropped folder or photo inside the library, say. */
  around(realPath: string): AdbatchFolderKind | null {
    for (let path = realPath; ; path = dirname(path)) {
      const kind = this.at(path);
      if (kind || dirname(path) === path) return kind;
    }
  }
}

/** What the folders above a dropped path are, by their marks: a batch's folder dropped from a moved library. */
export async function markedAbove(path: string): Promise<AdbatchFolderKind | null> {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    for (const [name, kind] of MARK_NAMES) {
      if ((await stat(join(dir, name)).catch(() => null))?.isFile()) return kind;
    }
    if (dirname(dir) === dir) return null;
  }
}
