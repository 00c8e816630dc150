import { describe, expect, it } from 'vitest';
import { productStep, rowStep } from '../../../src-renderer/src/review/grid-navigation.ts';
import { paneGrid } from '../../../src-renderer/src/review/pane-layout.ts';
import { comparePair, surveyItems } from '../../../src-renderer/src/review/panes.ts';
import { inSortOrder, sortedIds } from '../../../src-renderer/src/review/sort.ts';

// Review's moves, panes and sort as pure rules: ↑ and ↓ by the grid's columns (never wrapping, the short last
// row reached), the loupe's product steps, compare within a product, survey of the selection, the pane grid
// that fits the window, and the sorts (stable, and kept while decisions change the results).

const kinds = (productId: string, kind: 'shot' | 'video' = 'shot') => ({ productId, kind });

describe('rowStep', () => {
  // 10 results in 4 columns: rows 0-3, 4-7, 8-9.
  it('moves a row down and up in the same column', () => {
    expect(rowStep(1, 10, 4, 1)).toBe(5);
    expect(rowStep(5, 10, 4, 1)).toBe(9);
    expect(rowStep(9, 10, 4, -1)).toBe(5);
    expect(rowStep(5, 10, 4, -1)).toBe(1);
  });
  it('stays on the top and bottom rows, and lands on the last result under a short last row', () => {
    expect(rowStep(2, 10, 4, -1)).toBe(2);
    expect(rowStep(8, 10, 4, 1)).toBe(8);
    expect(rowStep(7, 10, 4, 1)).toBe(9);
    expect(rowStep(3, 3, 4, 1)).toBe(3);
  });
  it('steps one by one in a single column', () => {
    expect(rowStep(0, 3, 1, 1)).toBe(1);
    expect(rowStep(0, 3, 0, 1)).toBe(1);
  });
});

describe('productStep', () => {
  const items = ['a', 'a', 'b', 'b', 'b', 'c'].map((productId) => ({ productId }));
  it("goes to the next product's first result", () => {
    expect(productStep(items, 0, 1)).toBe(2);
    expect(productStep(items, 3, 1)).toBe(5);
    expect(productStep(items, 5, 1)).toBe(5);
  });
  it("goes back to the previous product's first result", () => {
    expect(productStep(items, 4, -1)).toBe(0);
    expect(productStep(items, 5, -1)).toBe(2);
    expect(productStep(items, 1, -1)).toBe(1);
  });
});

describe('comparePair', () => {
  const items = [
    { id: 1, ...kinds('a') },
    { id: 2, ...kinds('b') },
    { id: 3, ...kinds('b', 'video') },
    { id: 4, ...kinds('a') },
    { id: 5, ...kinds('b') },
    { id: 6, ...kinds('c') },
  ];
  const ids = (at: number) => comparePair(items, at).map((item) => item.id);
  it('pairs the active result with the next of its product and kind, skipping others', () => {
    expect(ids(0)).toEqual([1, 4]);
    expect(ids(1)).toEqual([2, 5]);
  });
  it("takes the previous one at the product's end, and none from another product", () => {
    expect(ids(3)).toEqual([1, 4]);
    expect(ids(2)).toEqual([3]);
    expect(ids(5)).toEqual([6]);
  });
});

describe('surveyItems', () => {
  const items = [1, 2, 3, 4, 5, 6].map((id) => ({ id, ...kinds(id <= 3 ? 'a' : 'b') }));
  it('shows every selected result, across products', () => {
    expect(surveyItems(items, 0, new Set([1, 4, 5, 6, 2])).map((item) => item.id)).toEqual([1, 2, 4, 5, 6]);
  });
  it("shows the active result's product without a selection of two", () => {
    expect(surveyItems(items, 4, new Set([1])).map((item) => item.id)).toEqual([4, 5, 6]);
  });
});

describe('paneGrid', () => {
  const space = { gap: 12, caption: 44, sides: 12, aspect: 1 };
  it('fits 5 panes in a wide space in one row of larger pictures than two rows give', () => {
    // 1872 x 820: the room under Review's toolbar at 1920 x 1080.
    const grid = paneGrid(5, { ...space, width: 1872, height: 820 });
    expect(grid.columns * grid.rows).toBeGreaterThanOrEqual(5);
    expect(grid.columns * grid.width + (grid.columns - 1) * 12).toBeLessThanOrEqual(1872);
    expect(grid.rows * grid.height + (grid.rows - 1) * 12).toBeLessThanOrEqual(820);
    expect(grid).toMatchObject({ columns: 3, rows: 2 });
  });
  it('stacks in a tall space and gives a single pane the whole space', () => {
    expect(paneGrid(2, { ...space, width: 600, height: 1400 })).toMatchObject({ columns: 1, rows: 2 });
    expect(paneGrid(1, { ...space, width: 900, height: 700 })).toEqual({
      columns: 1,
      rows: 1,
      width: 900,
      height: 700,
    });
  });
});

describe('sort', () => {
  const items = [
    { id: 1, stars: 2, madeAt: 300, productName: 'hat 10' },
    { id: 2, stars: 5, madeAt: 100, productName: 'Cap' },
    { id: 3, stars: 0, madeAt: 200, productName: 'hat 9' },
    { id: 4, stars: 5, madeAt: 400, productName: 'bottle' },
  ];
  it('orders by stars (ties in batch order), time made and product name', () => {
    expect(sortedIds(items, 'batch')).toEqual([1, 2, 3, 4]);
    expect(sortedIds(items, 'stars')).toEqual([2, 4, 1, 3]);
    expect(sortedIds(items, 'time')).toEqual([2, 3, 1, 4]);
    expect(sortedIds(items, 'product')).toEqual([4, 2, 3, 1]);
  });
  it('keeps the order taken while a decision changes a result, and takes it again for a new set', () => {
    expect(inSortOrder(items, 'stars').map((item) => item.id)).toEqual([2, 4, 1, 3]);
    const decided = items.map((item) => (item.id === 3 ? { ...item, stars: 5 } : item));
    const after = inSortOrder(decided, 'stars');
    expect(after.map((item) => item.id)).toEqual([2, 4, 1, 3]);
    expect(after[3]?.stars).toBe(5);
    const more = [...decided, { id: 5, stars: 3, madeAt: 500, productName: 'Tote' }];
    expect(inSortOrder(more, 'stars').map((item) => item.id)).toEqual([2, 3, 4, 5, 1]);
  });
});
