import { describe, expect, it } from 'vitest';
import {
  compareNatural,
  DEFAULT_GROUP_PATTERN,
  groupBySku,
  parseGroupPattern,
  skuOf,
} from '../../../../src-main/core/ingest/group.ts';

const pattern = parseGroupPattern(DEFAULT_GROUP_PATTERN);
const group = (names: string[], by = pattern) =>
  groupBySku(names, (name) => name, by)?.map((g) => [g.key, g.items]) ?? null;

describe('skuOf', () => {
  it.each([
    ['SKU123_1.jpg', 'SKU123'],
    ['SKU123-2.png', 'SKU123'],
    ['red-cap_front_10.webp', 'red-cap_front'],
    ['mug.jpg', null],
    ['1.jpg', null],
    ['IMG_2041.JPG', 'IMG'],
  ])('%s -> %s', (name, sku) => {
    expect(skuOf(name, pattern)).toBe(sku);
  });

  it('takes the named group, else the first group, else the whole match', () => {
    expect(skuOf('A1-front.jpg', /^(?<sku>[A-Z]\d)-/u)).toBe('A1');
    expect(skuOf('A1-front.jpg', /^([A-Z]\d)-/u)).toBe('A1');
    expect(skuOf('A1-front.jpg', /^[A-Z]\d/u)).toBe('A1');
  });
});

describe('groupBySku', () => {
  it('splits a flat folder into one product per SKU, keeping each group in order', () => {
    expect(group(['SKU123_1.jpg', 'SKU123-2.png', 'SKU456_1.jpg', 'SKU456_2.jpg'])).toEqual([
      ['SKU123', ['SKU123_1.jpg', 'SKU123-2.png']],
      ['SKU456', ['SKU456_1.jpg', 'SKU456_2.jpg']],
    ]);
  });

  it('makes a lone file that matches nothing a product of its own in a folder that splits', () => {
    expect(group(['A_1.jpg', 'B_1.jpg', 'mug.jpg'])).toEqual([
      ['A', ['A_1.jpg']],
      ['B', ['B_1.jpg']],
      ['mug', ['mug.jpg']],
    ]);
  });

  it('leaves a product folder whole: one SKU, or names that carry none', () => {
    expect(group(['cap_1.png', 'cap_2.png', 'cap_3.png'])).toBeNull();
    expect(group(['front.jpg', 'back.jpg', 'side.jpg'])).toBeNull();
    expect(group(['1.jpg', '2.jpg', '10.jpg'])).toBeNull();
  });

  it('groups by a pattern the user gives', () => {
    const bySuffix = parseGroupPattern('^(?<sku>\\w+)\\.(front|back)$');
    expect(group(['tee.front.jpg', 'tee.back.jpg', 'cap.front.jpg'], bySuffix)).toEqual([
      ['tee', ['tee.front.jpg', 'tee.back.jpg']],
      ['cap', ['cap.front.jpg']],
    ]);
  });
});

describe('parseGroupPattern', () => {
  it('refuses an invalid regular expression with a message that says so', () => {
    expect(() => parseGroupPattern('([a-z')).toThrow(/--pattern is not a valid regular expression/);
  });
});

describe('compareNatural', () => {
  it('puts 2 before 10 and is a total order', () => {
    expect(['10.jpg', '2.jpg', '1.jpg', 'b.jpg', 'B.jpg'].sort(compareNatural)).toEqual([
      '1.jpg',
      '2.jpg',
      '10.jpg',
      'B.jpg',
      'b.jpg',
    ]);
  });
});
