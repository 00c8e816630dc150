import { sep } from 'node:path';
import { type AdbatchFolders, adbatchSkip, markedAbove } from './adbatch-folders.ts';
import type { SkippedFile } from './types.ts';

// Links say where they lead (issue 28, point 4): a photo reached through a symbolic link (to the file, or to
// a folder above it) that leaves the dropped folder is taken only with a warning naming where it really
// is; one that leads into Adbatch's own folders (the library, a batch's results, an export, the data
// folder: by path or by mark) is passed over in one line that says so. Real paths are spelled as the walk
// spells them (latin1, one character a byte), and shown to people as UTF-8.

/** Whether `real` is the dropped folder's real path or lies inside it. */
export function isWithin(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

/** A real path for people. */
export function shownReal(real: string): string {
  return Buffer.from(real, 'latin1').toString('utf8');
}

/** The warning of a photo taken from outside the dropped folder, `realPath` as people read it. */
export function outsideReason(realPath: string): string {
  return `reached through a link that leaves the dropped folder: the photo really is ${realPath}`;
}

/**
 * The line for a link out of the dropped folder that leads into one of Adbatch's folders, or null when it
 * leads elsewhere. `file` is the link (or the folder reached through one) as the walk shows it.
 */
export async function linkIntoAdbatch(
  file: string,
  real: string,
  adbatch: AdbatchFolders,
): Promise<SkippedFile | null> {
  const kind = adbatch.around(real) ?? (await markedAbove(shownReal(real)));
  if (!kind) return null;
  const skip = adbatchSkip(file, kind);
  return { ...skip, reason: `a link into ${skip.reason}: it leads to ${shownReal(real)}` };
}
