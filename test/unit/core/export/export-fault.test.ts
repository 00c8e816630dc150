import { describe, expect, it } from 'vitest';
import { describeExportFault } from '../../../../src-main/core/export/export-fault.ts';

// What an export stopped by this computer says: the reason, what to do, and what was kept, in grammar that
// holds for one file as for many.

describe('describeExportFault', () => {
  it('says what was kept in the singular for one file and in the plural for several, and nothing for none', () => {
    const full = { kind: 'disk_full', code: 'ENOSPC' } as const;
    expect(describeExportFault(full, '/out', 1)).toBe(
      'The disk that holds the export folder (/out) is full: free some space, or choose another folder. The file finished so far is kept; export again to finish: it is not written twice.',
    );
    expect(describeExportFault(full, '/out', 3)).toBe(
      'The disk that holds the export folder (/out) is full: free some space, or choose another folder. The 3 files finished so far are kept; export again to finish: they are not written twice.',
    );
    expect(describeExportFault({ kind: 'read_only', code: 'EROFS' }, '/out', 0)).toBe(
      'The export folder (/out) is on a read-only disk: choose another folder.',
    );
  });
});
