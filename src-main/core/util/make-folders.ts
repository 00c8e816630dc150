import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

// `mkdir -p`, one level at a time and each level asked once. Node's own recursive mkdir loops for ever
// (100 % CPU, no answer) where a parent exists but refuses children with ENOENT, as /proc and other
// virtual file systems do; and it answers ENOENT where the disk answered EROFS. Here the folder is made
// after its parent, and every error is the syscall's own (so core/app/fs-refusal.ts says it in words) but
// one: a parent that is there yet answers ENOENT for a new child (procfs, sysfs) takes no new folders,
// which is said as EPERM, "may not be written", since "it does not exist" would send the user looking.

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

export async function makeFolders(target: string): Promise<void> {
  try {
    await mkdir(target);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') {
      if ((await stat(target)).isDirectory()) return;
      throw error;
    }
    if (codeOf(error) !== 'ENOENT' || dirname(target) === target) throw error;
    await makeFolders(dirname(target));
    try {
      await mkdir(target);
    } catch (again) {
      // Made meanwhile by someone else (two exports into one folder): what was wanted.
      if (codeOf(again) === 'EEXIST' && (await stat(target)).isDirectory()) return;
      throw takesNoFolders(again, target);
    }
  }
}

/** The same, for the start-up paths that run before anything is awaited (the data folder, the lease). */
export function makeFoldersSync(target: string): void {
  try {
    mkdirSync(target);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') {
      if (statSync(target).isDirectory()) return;
      throw error;
    }
    if (codeOf(error) !== 'ENOENT' || dirname(target) === target) throw error;
    makeFoldersSync(dirname(target));
    try {
      mkdirSync(target);
    } catch (again) {
      if (codeOf(again) === 'EEXIST' && statSync(target).isDirectory()) return;
      throw takesNoFolders(again, target);
    }
  }
}

/** ENOENT with the parent there: the parent takes no new folders (see above); any other error as it came. */
function takesNoFolders(error: unknown, target: string): unknown {
  if (codeOf(error) !== 'ENOENT') return error;
  return Object.assign(new Error(`${dirname(target)} takes no new folders (${target})`, { cause: error }), {
    code: 'EPERM',
    path: target,
    syscall: 'mkdir',
  });
}
