import type { LocalFault } from '../util/local-fault.ts';

// An export stopped by this computer: the export folder's disk is full, it may not be written, or it
// is gone. Said with what to do, and that what was finished is kept (an export run again skips it).

export function describeExportFault(fault: LocalFault, folder: string, kept: number): string {
  const keptSentence =
    kept > 0
      ? ` ${kept === 1 ? 'The file' : `The ${kept} files`} finished so far ${kept === 1 ? 'is' : 'are'} kept; export again to finish: ${kept === 1 ? 'it is' : 'they are'} not written twice.`
      : '';
  switch (fault.kind) {
    case 'disk_full':
      return `The disk that holds the export folder (${folder}) is full: free some space, or choose another folder.${keptSentence}`;
    case 'not_writable':
      return `Adbatch may not write in the export folder (${folder}): allow it, or choose another folder.${keptSentence}`;
    case 'read_only':
      return `The export folder (${folder}) is on a read-only disk: choose another folder.${keptSentence}`;
    case 'gone':
    case 'batch_folder_gone':
      return `The export folder (${folder}) is gone: it was moved, or its drive was unplugged. Choose another folder.${keptSentence}`;
  }
}
