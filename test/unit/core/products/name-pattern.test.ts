import { describe, expect, it } from 'vitest';
import { identitiesFromNames, parseNamePattern } from '../../../../src-main/core/products/name-pattern.ts';

/** What the pattern reads from one name, as a batch's names are read. */
const identityFromName = (name: string, pattern: RegExp) =>
  identitiesFromNames([name], pattern, pattern.source)[0];

describe('a name pattern', () => {
  it('reads fields from a template: each takes as little as it can but the last, which takes the rest', () => {
    const pattern = parseNamePattern('{sku}_{title}');
    expect(identityFromName('SKU123_Linen Shirt', pattern)).toEqual({ sku: 'SKU123', title: 'Linen Shirt' });
    expect(identityFromName('A1_Cap_Black', pattern)).toEqual({ sku: 'A1', title: 'Cap_Black' });
    expect(identityFromName('no separator', pattern)).toBeNull();
    // Literal text around fields is literal, not a regular expression.
    expect(identityFromName('Solidus (Hat) 01', parseNamePattern('{brand} ({title}) {sku}'))).toEqual({
      brand: 'Solidus',
      title: 'Hat',
      sku: '01',
    });
  });

  it('reads the named groups of a regular expression the designer sets', () => {
    const pattern = parseNamePattern('^(?<sku>[A-Z]{2}\\d+)\\s+(?<title>.+)$');
    expect(identityFromName('AB12 Tote bag', pattern)).toEqual({ sku: 'AB12', title: 'Tote bag' });
    expect(identityFromName('tote bag', pattern)).toBeNull();
  });

  it('refuses a pattern that names no field, an unknown one, one twice, or a broken regex, in words', () => {
    expect(() => parseNamePattern('  ')).toThrow('The pattern is empty: give one such as {sku}_{title}.');
    expect(() => parseNamePattern('{sku}-{size}')).toThrow(
      'The pattern "{sku}-{size}" has an unknown field {size}: the fields are {sku} {handle} {title} {brand} {alt}.',
    );
    expect(() => parseNamePattern('{sku}-{sku}')).toThrow('The pattern "{sku}-{sku}" names {sku} twice.');
    expect(() => parseNamePattern('{sku}_{title')).toThrow('has a brace that opens or closes no field');
    expect(() => parseNamePattern('^(\\d+)_')).toThrow(/must name its groups after fields/);
    expect(() => parseNamePattern('^(?<code>\\d+)_')).toThrow(/not \(\?<code>…\)/);
    expect(() => parseNamePattern('^(?<sku>[')).toThrow(/is not a valid regular expression/);
  });

  it('stops a pattern that backtracks for ever on a long name, in words, and reads every name of a good one', () => {
    const names = ['SKU1_Cap', 'no separator', `${'a'.repeat(40)}!`];
    expect(identitiesFromNames(names, parseNamePattern('{sku}_{title}'), '{sku}_{title}')).toEqual([
      { sku: 'SKU1', title: 'Cap' },
      null,
      null,
    ]);
    // A repeat inside a repeat: some 2^40 ways to fail on the last name, stopped after 200 ms here.
    const typed = '^(?<sku>(a+)+)$';
    expect(() => identitiesFromNames(names, parseNamePattern(typed), typed, 200)).toThrow(
      'The pattern "^(?<sku>(a+)+)$" takes too long on these names (over 0.2 s): a repeat inside a repeat, such as (a+)+, can make a pattern run for ever. Write it without one, or use a template such as {sku}_{title}.',
    );
  });
});
