// A result that could not be written for a reason on this computer, not the service's: the disk is full,
// the folder may not be written, the volume is read-only, or the folder (or its drive) is gone. Such a
// fault pauses the batch, with the reason in words; the results stay owed, and nothing is marked failed,
// because the service was paid and will serve them again once the fault is mended.

export type LocalFaultKind = 'disk_full' | 'not_writable' | 'read_only' | 'gone' | 'batch_folder_gone';

export interface LocalFault {
  kind: LocalFaultKind;
  /** The OS's own code (`ENOSPC`), for the log. */
  code: string;
  /** For `batch_folder_gone`: the batch's folder that holds its verified results, and is no longer there. */
  folder?: string;
}

const KINDS: Record<string, LocalFaultKind> = {
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
  EFBIG: 'disk_full',
  EACCES: 'not_writable',
  EPERM: 'not_writable',
  EROFS: 'read_only',
  ENOENT: 'gone',
  ENOTDIR: 'gone',
  ENODEV: 'gone',
  ENXIO: 'gone',
  EIO: 'gone',
};

/** The local fault behind an error (its `code`, or its cause's), or null for any other error. */
export function localFaultOf(error: unknown): LocalFault | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && code in KINDS) return { kind: KINDS[code]!, code };
  }
  return null;
}

function megabytes(bytes: number): string {
  return `${Math.max(1, Math.ceil(bytes / 1_000_000)).toLocaleString('en-US')} MB`;
}

/**
 * The fault in words, with what to do. `owedBytes` is what the batch's owed results will take (an estimate
 * where their sizes are not known yet).
 */
export function describeLocalFault(fault: LocalFault, libraryDir: string, owedBytes: number): string {
  switch (fault.kind) {
    case 'disk_full':
      return `The disk that holds the library (${libraryDir}) is full: free about ${megabytes(owedBytes)} and resume.`;
    case 'not_writable':
      return `Adbatch may not write in the library folder (${libraryDir}): allow it, or choose another library, and resume.`;
    case 'read_only':
      return `The library folder (${libraryDir}) is on a read-only disk: choose another library and resume.`;
    case 'gone':
      return `The library folder (${libraryDir}) is gone: it was renamed or moved, or its drive was unplugged. Put it back, or choose where it is now, and resume; or download it all again, free.`;
    case 'batch_folder_gone':
      return `This batch's folder (${fault.folder ?? libraryDir}) is no longer in the library: it was renamed, moved or deleted. Put it back, or choose where it is now, and resume; or download it all again, free.`;
  }
}
