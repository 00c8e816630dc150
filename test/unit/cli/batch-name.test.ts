import { describe, expect, it } from 'vitest';
import { freshBatchName } from '../../../src-main/cli/batch-name.ts';

describe('freshBatchName', () => {
  it('keeps a name no batch has', () => {
    expect(freshBatchName('2026-11-27 16:40 examples', ['2026-11-27 16:39 examples'])).toBe(
      '2026-11-27 16:40 examples',
    );
  });

  it('numbers a name already taken, past the numbers taken too', () => {
    expect(freshBatchName('demo', ['demo'])).toBe('demo (2)');
    expect(freshBatchName('demo', ['demo', 'demo (2)', 'demo (3)'])).toBe('demo (4)');
  });
});
