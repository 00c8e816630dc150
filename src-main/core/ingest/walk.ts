import { readdir, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { describeFsFailure } from '../app/fs-refusal.ts';
import { markedKind } from '../folder-marks.ts';
import { AdbatchFolders, adbatchSkip, realKey } from './adbatch-folders.ts';
import { workbookAdvice } from './catalog-file.ts';
import type { FileRef } from './check-photo.ts';
import { isWithin, linkIntoAdbatch, shownReal } from './outside-links.ts';
import type { Problem, SkippedFile } from './types.ts';

// The files under a dropped folder, folder by folder, nested to any depth. System junk and a folder's own
// readme or licence are skipped quietly; a folder Adbatch wrote (by path or by its mark) is passed over
// whole, in one line; links are followed, but each real folder is read once, so a link back to an ancestor
// ends instead of looping. Names are read as raw bytes so that a name which is not valid UTF-8 can still
// be opened.

export interface WalkedFolder {
  folder: FileRef;
  /** Relative to the dropped folder ('' for the dropped folder itself). */
  rel: string;
  files: FileRef[];
}

export interface Walk {
  folders: WalkedFolder[];
  problems: Problem[];
  skipped: SkippedFile[];
}

const JUNK_FILES = new Set(['thumbs.db', 'ehthumbs.db', 'desktop.ini', 'icon\r']);
const JUNK_FOLDERS = new Set(['__macosx', '@eadir', '$recycle.bin', 'system volume information']);

/**
 * A folder's own readme or licence (photo packs and the bundled examples carry them): a note about the
 * photos, not a stray document the designer should hear about. Guess: these names, as text files.
 */
const FOLDER_NOTE =
  /^(readme|licen[cs]e|copying|notice)([-_. ][^/]*)?\.(md|markdown|txt|rst)$|^(readme|licen[cs]e|copying|notice)$/i;

/** Why a file beside the photos is passed over quietly as a note about them, or null when it is not. */
export function folderNoteReason(name: string): string | null {
  return FOLDER_NOTE.test(name) ? 'a readme or licence beside the photos' : null;
}

/** Why a name is junk, or null when it is not. */
export function junkReason(name: string, isFolder: boolean): string | null {
  if (name.startsWith('._')) return 'macOS resource fork';
  if (name.startsWith('.')) return isFolder ? 'hidden folder' : 'hidden file';
  const lower = name.toLowerCase();
  if (isFolder ? JUNK_FOLDERS.has(lower) : JUNK_FILES.has(lower)) return 'system file';
  return null;
}

export function fileRef(raw: Buffer): FileRef {
  const display = raw.toString('utf8');
  const utf8Name = Buffer.from(display, 'utf8').equals(raw);
  return { path: utf8Name ? display : raw, display, utf8Name };
}

const SEPARATOR = Buffer.from(sep);

export async function walkFolder(root: string, adbatch = AdbatchFolders.none): Promise<Walk> {
  const walk: Walk = { folders: [], problems: [], skipped: [] };
  const seen = new Set<string>();
  const rootReal = await realKey(root);
  /** Whether a real path was reached through a link that leaves the dropped folder. */
  const outside = (real: string) => rootReal !== null && !isWithin(rootReal, real);
  const pending: Buffer[] = [Buffer.from(root)];
  while (pending.length > 0) {
    const dirRaw = pending.pop()!;
    const dir = fileRef(dirRaw);
    const real = await realKey(dirRaw);
    if (real === null) continue;
    if (seen.has(real)) {
      walk.skipped.push({ file: dir.display, reason: 'a link to a folder already read' });
      continue;
    }
    seen.add(real);
    const knownAdbatch = adbatch.at(real);
    if (knownAdbatch) {
      walk.skipped.push(adbatchSkip(dir.display, knownAdbatch));
      continue;
    }
    const intoAdbatch = outside(real) ? await linkIntoAdbatch(dir.display, real, adbatch) : null;
    if (intoAdbatch) {
      walk.skipped.push(intoAdbatch);
      continue;
    }
    let entries: Array<{
      name: Buffer;
      isDirectory(): boolean;
      isFile(): boolean;
      isSymbolicLink(): boolean;
    }>;
    try {
      entries = await readdir(dirRaw, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      walk.problems.push({
        file: dir.display,
        reason:
          code === 'EACCES' || code === 'EPERM'
            ? 'folder unreadable: permission denied'
            : `folder unreadable: ${describeFsFailure(error) ?? code}`,
        severity: 'error',
        code: 'unreadable',
      });
      continue;
    }
    const marked = markedKind(entries.map((entry) => entry.name.toString('utf8')));
    if (marked) {
      walk.skipped.push(adbatchSkip(dir.display, marked));
      continue;
    }
    const files: FileRef[] = [];
    const subfolders: Buffer[] = [];
    for (const entry of entries) {
      const raw = Buffer.concat([dirRaw, SEPARATOR, entry.name]);
      const name = entry.name.toString('utf8');
      // A file an export placed in a folder that is not Adbatch's (its folders are found as folders are).
      const placed = adbatch.at(`${real}${sep}${entry.name.toString('latin1')}`);
      if (placed && !entry.isDirectory()) {
        walk.skipped.push(adbatchSkip(fileRef(raw).display, placed));
        continue;
      }
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(raw);
          isFolder = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ELOOP')
            walk.skipped.push({ file: fileRef(raw).display, reason: 'a link that loops' });
          else
            walk.problems.push({
              file: fileRef(raw).display,
              reason: 'a broken link: what it points to is gone',
              severity: 'warning',
              code: 'broken_link',
            });
          continue;
        }
      }
      const junk = junkReason(name, isFolder);
      if (junk) {
        walk.skipped.push({ file: fileRef(raw).display, reason: junk });
        continue;
      }
      const note = isFile ? folderNoteReason(name) : null;
      const workbook = isFile ? workbookAdvice(name) : null;
      if (note) walk.skipped.push({ file: fileRef(raw).display, reason: note });
      else if (workbook) {
        walk.problems.push({
          file: fileRef(raw).display,
          reason: `not an image: ${workbook}`,
          severity: 'warning',
          code: 'not_an_image',
        });
      } else if (isFolder) subfolders.push(raw);
      else if (isFile) {
        const fileReal = entry.isSymbolicLink()
          ? await realKey(raw)
          : `${real}${sep}${entry.name.toString('latin1')}`;
        if (fileReal === null || !outside(fileReal)) {
          files.push(fileRef(raw));
          continue;
        }
        const into = entry.isSymbolicLink()
          ? await linkIntoAdbatch(fileRef(raw).display, fileReal, adbatch)
          : null;
        if (into) walk.skipped.push(into);
        else files.push({ ...fileRef(raw), realPath: shownReal(fileReal) });
      } else walk.skipped.push({ file: fileRef(raw).display, reason: 'not a regular file' });
    }
    walk.folders.push({ folder: dir, rel: relative(root, dir.display), files });
    // Popped last-in first-out: pushed in reverse so folders are read in name order.
    pending.push(...subfolders.reverse());
  }
  return walk;
}
