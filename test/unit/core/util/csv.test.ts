import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  BYTE_ORDER_MARK,
  csvBomOf,
  csvField,
  csvText,
  inertCellValue,
  inertText,
  isFormulaLike,
} from '../../../../src-main/core/util/csv.ts';

// The one CSV writer (core/util/csv.ts): RFC 4180, formula cells inert, numbers as numbers, the BOM asked.

const readBack = (text: string) => parse(Buffer.from(text, 'utf8'), { bom: true }) as string[][];

describe('the CSV writer', () => {
  it('prefixes every formula trigger OWASP lists, also after leading white space, and quotes the cell', () => {
    for (const text of [
      '=HYPERLINK("http://x","y")',
      '+1',
      '-1+2',
      '@SUM(A1)',
      '\tx',
      '\rx',
      '  =1',
      '\u00a0@x',
    ]) {
      expect(isFormulaLike(text), JSON.stringify(text)).toBe(true);
      const field = csvField(text);
      expect(field.startsWith(`"'`), JSON.stringify(field)).toBe(true);
      expect(readBack(`${field}\r\n`)[0]![0]).toBe(`'${text}`);
    }
    for (const text of ['Hat', 'a=b', "it's", '', ' plain', '3-pack']) {
      expect(isFormulaLike(text), JSON.stringify(text)).toBe(false);
      expect(inertText(text)).toBe(text);
    }
  });

  it('keeps a number a number, negative ones too, and a text that looks like one a text', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField(126)).toBe('126');
    expect(csvField('-3')).toBe(`"'-3"`);
    expect(csvField(null)).toBe('');
  });

  it('quotes per RFC 4180: commas, quotes and line breaks, quotes doubled, CRLF between records', () => {
    const text = csvText(
      ['a', 'b'],
      [
        ['x,y', 'say "hi"'],
        ['line\nbreak', 2],
      ],
      { bom: false },
    );
    expect(text).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",2\r\n');
    expect(readBack(text)).toEqual([
      ['a', 'b'],
      ['x,y', 'say "hi"'],
      ['line\nbreak', '2'],
    ]);
  });

  it('writes the byte-order mark only when asked', () => {
    expect(csvText(['a'], [['·']], { bom: true }).startsWith(`${BYTE_ORDER_MARK}a\r\n`)).toBe(true);
    expect(csvText(['a'], [['·']], { bom: false }).startsWith('a\r\n')).toBe(true);
    expect(Buffer.from(csvText(['a'], [], { bom: true }), 'utf8').subarray(0, 3)).toEqual(
      Buffer.from([0xef, 0xbb, 0xbf]),
    );
  });

  it('gives back what it neutralised, and a text that already started with a quote is told apart', () => {
    for (const text of ['=1', "'=1", "''=1", "'plain", '-3', 'Hat']) {
      expect(inertCellValue(inertText(text)), text).toBe(text);
    }
    expect(inertText("'=1")).toBe("''=1");
  });

  it('takes the BOM from what was asked, else the preference, else on (the guess in docs/export.md)', () => {
    expect(csvBomOf({}, undefined)).toBe(true);
    expect(csvBomOf({ csvBom: false }, undefined)).toBe(false);
    expect(csvBomOf({ csvBom: false }, true)).toBe(true);
    expect(csvBomOf({ csvBom: true }, false)).toBe(false);
  });
});
