import { describe, expect, it } from 'vitest';
import { folderName } from '../../../src-renderer/src/export/folder-name.ts';

// The name the export dialog shows for the folder chosen, from paths as each platform's folder dialog gives them.

describe('folderName', () => {
  it('is the last name of a macOS, Linux or Windows path, a trailing separator or not', () => {
    expect(folderName('/Users/ana/Desktop/Spring ads')).toBe('Spring ads');
    expect(folderName('/tmp/exports/')).toBe('exports');
    expect(folderName('C:\\Users\\ana\\Pictures\\Export')).toBe('Export');
    expect(folderName('\\\\server\\share\\ads\\')).toBe('ads');
  });

  it('is the path itself where there is no name in it (a root)', () => {
    expect(folderName('/')).toBe('/');
    expect(folderName('D:\\')).toBe('D:');
  });
});
