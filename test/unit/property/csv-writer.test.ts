import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  type CsvCell,
  csvText,
  inertCellValue,
  inertText,
  isFormulaLike,
} from '../../../src-main/core/util/csv.ts';
import { check, hostileText } from '../../support/fuzz.ts';

// Issue 28 point 8: the one CSV writer driven by generated rows, read back by a real CSV parser (csv-parse,
// as a spreadsheet or Shopify would read the bytes): every cell equal to what was written, no text cell a
// formula, and every text given back exactly by `inertCellValue`.

const cell: fc.Arbitrary<CsvCell> = fc.oneof(
  { weight: 4, arbitrary: hostileText() },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const table = fc.integer({ min: 1, max: 6 }).chain((columns) =>
  fc.record({
    header: fc.array(hostileText(12), { minLength: columns, maxLength: columns }),
    rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 8 }),
    bom: fc.boolean(),
  }),
);

describe('the CSV writer, property-tested', () => {
  it('reads back equal and inert, whatever the cells', () => {
    check(
      fc.property(table, ({ header, rows, bom }) => {
        const bytes = Buffer.from(csvText(header, rows, { bom }), 'utf8');
        if (bom !== (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) return false;
        const read = parse(bytes, { bom: true, relax_column_count: false }) as string[][];
        const written: CsvCell[][] = [header, ...rows];
        if (read.length !== written.length) return false;
        return written.every((fields, row) =>
          fields.every((field, column) => {
            const back = read[row]![column]!;
            if (field === null) return back === '';
            if (typeof field === 'number') return Number(back) === field || (back === '0' && field === 0);
            return back === inertText(field) && !isFormulaLike(back) && inertCellValue(back) === field;
          }),
        );
      }),
    );
  });
});
