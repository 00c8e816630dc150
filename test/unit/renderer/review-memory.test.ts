import { describe, expect, it } from 'vitest';
import { parsedMemory, scopeKey } from '../../../src-renderer/src/review/review-memory.ts';

// What Review reads back from local storage: the sort and the places it was left on, parsed; anything else
// (an older shape, a hand edit) left out rather than trusted.

describe('review memory', () => {
  it('keys a batch and a product across batches apart', () => {
    expect(scopeKey({ batchId: 'b1' })).toBe('batch:b1');
    expect(scopeKey({ product: 'folder:/photos/hat' })).toBe('product:folder:/photos/hat');
  });
  it('reads back a sort and the places kept', () => {
    expect(parsedMemory({ sort: 'stars', positions: { 'batch:b1': 7 } })).toEqual({
      sort: 'stars',
      positions: { 'batch:b1': 7 },
    });
  });
  it('leaves out an unknown sort and places that are no result id', () => {
    expect(
      parsedMemory({ sort: 'colour', positions: { 'batch:b1': '7', 'batch:b2': 1.5, 'batch:b3': 3 } }),
    ).toEqual({ positions: { 'batch:b3': 3 } });
    expect(parsedMemory(null)).toEqual({});
    expect(parsedMemory('stars')).toEqual({});
  });
});
