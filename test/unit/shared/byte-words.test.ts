import { describe, expect, it } from 'vitest';
import { megabytes } from '../../../src-main/shared/byte-words.ts';

// One way to say a size, for every message that says one (ingest, downloads, export, the CLI, the app).

describe('megabytes', () => {
  it('says a size in binary megabytes, one decimal under 10 MB, whole with separators above', () => {
    const MB = 1024 * 1024;
    expect(megabytes(1.5 * MB)).toBe('1.5 MB');
    expect(megabytes(1 * MB)).toBe('1 MB');
    expect(megabytes(40 * MB)).toBe('40 MB');
    expect(megabytes(40 * MB + 1)).toBe('40 MB');
    expect(megabytes(20_480 * MB)).toBe('20,480 MB');
  });

  it('says under a megabyte in kilobytes, never "0.0 MB"', () => {
    expect(megabytes(5000)).toBe('5 KB');
    expect(megabytes(1)).toBe('1 KB');
    expect(megabytes(0)).toBe('0 KB');
  });
});
