import { AppError } from './errors.ts';

// Every refusal in words (issue 28, point 7): an error from the file system that no handler turned into a
// sentence of its own would reach the user as "Something went wrong", or as Node's own "EEXIST: file already
// exists, mkdir …". The one place that says, for each known code, what is wrong, where, and what to do:
// used by dispatch (so the app, the CLI and MCP hear the same), and by the CLI and MCP for what they meet
// outside a handler.

/** What Node puts on an error from the file system. */
interface FsFailure {
  code: string;
  path: string | null;
  syscall: string | null;
}

/** The file-system failure behind an error (its own, or its cause's), or null when there is none. */
function fsFailureOf(error: unknown): FsFailure | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, path, dest, syscall } = current as NodeJS.ErrnoException & { dest?: unknown };
    if (typeof code !== 'string' || !Object.hasOwn(SENTENCES, code)) continue;
    // A rename or link names what it would make (dest) after what it started from (path).
    const where = typeof dest === 'string' && code === 'EEXIST' ? dest : path;
    return {
      code,
      path: typeof where === 'string' ? where : null,
      syscall: typeof syscall === 'string' ? syscall : null,
    };
  }
  return null;
}

type Sentence = (at: string, syscall: string | null) => string;

const notAllowed: Sentence = (at, syscall) =>
  `Adbatch is not allowed to ${READS.has(syscall ?? '') ? 'read' : 'write'} ${at}: allow it (its permissions, or the system's privacy settings), or choose another place.`;
const diskFull: Sentence = (at) =>
  `The disk that holds ${at} is full: free some space, or choose a place on another disk, and try again.`;
const tooManyOpen: Sentence = (at) =>
  `Too many files are open at once on this computer (at ${at}): close some programs, or raise the limit of open files, and try again.`;

/** The calls that only read, to tell "not allowed to read" from "not allowed to write". */
const READS = new Set(['open', 'scandir', 'opendir', 'stat', 'lstat', 'access', 'readlink', 'realpath']);

/** What each known code means, at a path: what is wrong, and what to do. */
const SENTENCES: Record<string, Sentence> = {
  EEXIST: (at, syscall) =>
    syscall === 'mkdir'
      ? `${at} is a file, not a folder: choose a folder (or a name that is not taken), or move the file away.`
      : `${at} already exists: choose another name, or move it away first.`,
  EACCES: notAllowed,
  EPERM: notAllowed,
  ENOENT: (at) =>
    `${at} does not exist: it was moved, renamed or deleted, or its drive is unplugged. Check the path, or choose where it is now.`,
  ENOSPC: diskFull,
  EDQUOT: diskFull,
  EISDIR: (at) => `${at} is a folder, not a file: name a file instead.`,
  ENOTDIR: (at) => `${at} is not a folder: part of the path is a file. Choose a folder instead.`,
  EROFS: (at) => `${at} is on a read-only disk: choose a place on a disk Adbatch can write to.`,
  EMFILE: tooManyOpen,
  ENFILE: tooManyOpen,
  ENAMETOOLONG: (at) => `The path is too long for this disk (${at}): choose a shorter folder or name.`,
  ENOTEMPTY: (at) => `${at} is not empty: empty it, or choose another folder.`,
  EBUSY: (at) => `${at} is in use by another program: close it, and try again.`,
  ELOOP: (at) => `${at} is a link that loops back on itself: remove the link, or point it somewhere else.`,
};

/** The file-system failure behind an error in words, or null when it is not one this module knows. */
export function describeFsFailure(error: unknown): string | null {
  const failure = fsFailureOf(error);
  return failure
    ? SENTENCES[failure.code]!(failure.path ?? 'a file or folder Adbatch needed', failure.syscall)
    : null;
}

/** A file-system failure a handler let through, as the refusal the user reads. */
export function fsRefusalOf(error: unknown): AppError | null {
  const sentence = describeFsFailure(error);
  return sentence ? new AppError('refused', sentence) : null;
}

/** What a front end says of an error it met: a file-system failure in words, otherwise its own message. */
export function refusalWords(error: unknown): string {
  return describeFsFailure(error) ?? (error instanceof Error ? error.message : String(error));
}
