import { parse } from 'csv-parse/sync';
import { someNamed } from '../../shared/counted.ts';
import type { ProductIdentity, ProductSheetRow } from '../../shared/models.ts';
import { cellDelimiter } from '../../shared/spreadsheet-text.ts';
import { IDENTITY_FIELDS, type IdentityField } from '../../shared/vocabulary.ts';
import { IDENTITY_FIELD_WORDS } from '../../shared/words.ts';
import { type CsvOptions, csvText, inertCellValue } from '../util/csv.ts';

// The product sheet as CSV (the one writer, util/csv.ts: formula cells inert, a byte-order mark for Excel
// when asked), to edit in a spreadsheet and read back (`adbatch products <batch> --csv` and
// `--from FILE`, the sheet's Export and Import): one row per product, its id and name, then its identity.
// Read back, a row is matched to its product by the id, else by the product's current name; a column the
// file does not have leaves that field as it is, an empty cell empties it. A row that names no product is
// refused with the others, in words, before anything changes.

const ID_HEADER = 'Product id';
const NAME_HEADER = 'Name';

export class SheetCsvError extends Error {
  override name = 'SheetCsvError';
}

export function sheetCsv(rows: readonly ProductSheetRow[], options: CsvOptions): string {
  return csvText(
    [ID_HEADER, NAME_HEADER, ...IDENTITY_FIELDS.map((field) => IDENTITY_FIELD_WORDS[field])],
    rows.map((row) => [row.id, row.name, ...IDENTITY_FIELDS.map((field) => row.identity[field])]),
    options,
  );
}

/** A header cell as a column: the field's word or id (any case, spaces and dashes ignored). */
function columnOf(header: string): IdentityField | 'id' | 'name' | null {
  const plain = header.toLowerCase().replace(/[\s_-]+/g, '');
  if (plain === 'productid' || plain === 'id') return 'id';
  if (plain === 'name' || plain === 'product') return 'name';
  for (const field of IDENTITY_FIELDS) {
    if (plain === field || plain === IDENTITY_FIELD_WORDS[field].toLowerCase().replace(/\s+/g, ''))
      return field;
  }
  return null;
}

export interface SheetChange {
  productId: string;
  /** The fields the file has, as it gives them. */
  fields: Partial<ProductIdentity>;
}

/** The changes a CSV asks for, each matched to one of `rows`; a SheetCsvError naming what matches nothing. */
export function readSheetCsv(
  text: string,
  rows: readonly ProductSheetRow[],
  batchName: string,
): SheetChange[] {
  // Saved again by Excel, the sheet may be split by semicolons (cellDelimiter).
  const cells = cellDelimiter(text.replace(/^\uFEFF/, ''));
  let records: string[][];
  try {
    // A cell our writer made inert (`'=HYPERLINK…`) reads back as the text it was given.
    records = (
      parse(cells.body, {
        delimiter: cells.delimiter,
        record_delimiter: ['\r\n', '\n', '\r'],
        relax_column_count: true,
        skip_empty_lines: true,
      }) as string[][]
    ).map((cells) => cells.map(inertCellValue));
  } catch (error) {
    throw new SheetCsvError(`The file is not a readable CSV (${(error as Error).message}).`);
  }
  const [header = [], ...body] = records;
  const columns = header.map((cell) => columnOf(cell.trim()));
  if (!columns.includes('id') && !columns.includes('name')) {
    throw new SheetCsvError(
      `The file's first row names no "${ID_HEADER}" or "${NAME_HEADER}" column: each row must say which product it is.`,
    );
  }
  if (!columns.some((column) => column !== null && column !== 'id' && column !== 'name')) {
    throw new SheetCsvError(
      `The file's first row names none of the columns ${IDENTITY_FIELDS.map((field) => IDENTITY_FIELD_WORDS[field]).join(', ')}.`,
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const byName = new Map<string, ProductSheetRow[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  const changes: SheetChange[] = [];
  const unknown: string[] = [];
  body.forEach((cells, index) => {
    const cellOf = (column: 'id' | 'name') => cells[columns.indexOf(column)]?.trim() ?? '';
    const id = columns.includes('id') ? cellOf('id') : '';
    const name = columns.includes('name') ? cellOf('name') : '';
    const named = byName.get(name) ?? [];
    const row = id ? byId.get(id) : named.length === 1 ? named[0] : undefined;
    if (!row) {
      const said = [id && `id ${id}`, name && `name "${name}"`].filter(Boolean).join(', ') || 'no id or name';
      unknown.push(
        `row ${index + 2} (${said})${named.length > 1 ? ` names ${named.length} products: give its id` : ''}`,
      );
      return;
    }
    const fields: Partial<ProductIdentity> = {};
    columns.forEach((column, at) => {
      if (column && column !== 'id' && column !== 'name') fields[column] = cells[at] ?? '';
    });
    changes.push({ productId: row.id, fields });
  });
  if (unknown.length > 0) {
    throw new SheetCsvError(
      // A sheet of another batch names no product in any row: five of them say so, the rest are counted.
      `Nothing was changed: ${unknown.length === 1 ? 'a row names' : `${unknown.length} rows name`} no product of ${batchName} (${someNamed(unknown, 5, '; ')}). Match rows by the "${ID_HEADER}" column or the product's current name.`,
    );
  }
  return changes;
}
