import { describe, expect, it } from 'vitest';
import { uniqueNamer } from '../../../../src-main/core/ingest/unique-names.ts';

/** The names as they were given before naming was made linear: each suffix tried again from ` (2)`. */
function namesByTryingEverySuffix(bases: readonly string[]): string[] {
  const taken = new Set<string>();
  return bases.map((base) => {
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** A set of taken names that counts how often it is asked, and refuses past a budget (so a slow namer fails fast). */
class CountingSet extends Set<string> {
  lookups = 0;
  constructor(private readonly budget: number) {
    super();
  }
  override has(value: string): boolean {
    if (++this.lookups > this.budget) throw new Error(`more than ${this.budget} lookups`);
    return super.has(value);
  }
}

describe('uniqueNamer', () => {
  it('gives the same names as trying every suffix, whatever the case and the clashes', () => {
    const bases = [
      'Shirt',
      'shirt',
      'Shirt (2)',
      'SHIRT',
      'Shirt (4)',
      'Mug',
      'Shirt',
      'Shirt (2)',
      'mug',
      'Shirt',
    ];
    const namer = uniqueNamer();
    const names = bases.map(namer);
    expect(names).toEqual(namesByTryingEverySuffix(bases));
    expect(names).toEqual([
      'Shirt',
      'shirt (2)',
      'Shirt (2) (2)',
      'SHIRT (3)',
      'Shirt (4)',
      'Mug',
      'Shirt (5)',
      'Shirt (2) (3)',
      'mug (2)',
      'Shirt (6)',
    ]);
  });

  it('looks each name up a bounded number of times when one title is shared by 20,000 products', () => {
    const products = 20_000;
    // Trying every suffix from ` (2)` asks about 200 million times; linear naming asks about twice per product.
    const taken = new CountingSet(3 * products);
    const namer = uniqueNamer(taken);
    const names = Array.from({ length: products }, () => namer('Linen shirt'));
    expect(new Set(names).size).toBe(products);
    expect(names.at(-1)).toBe(`Linen shirt (${products})`);
    expect(taken.lookups).toBeLessThanOrEqual(2 * products);
  });
});
