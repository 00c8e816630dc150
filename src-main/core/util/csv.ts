// The one CSV writer: every CSV Adbatch writes (the export's manifest, a client's statement, the Shopify
// import file, a product sheet) goes through it, so each is spreadsheet-safe the same way.
//
// - RFC 4180: fields with a comma, a quote or a line break quoted, quotes doubled, CRLF between records.
// - Formula cells neutralised (OWASP, "CSV Injection"): Excel, LibreOffice and Google Sheets run a cell that
//   starts with `=`, `+`, `-` or `@` (after any leading white space), or with a tab or a carriage return,
//   as a formula. Such a text cell is written with a `'` before it, and quoted. Only text is: a cell the
//   caller gives as a number (a real numeric column: bytes, credits) is written as the number it is, so a
//   refund of -3 stays a number a sum can add. A text that happens to read as a number ("-3" as a product's
//   name) is text, and is prefixed (a guess: the column decides, never the look of the value).
// - The prefix is reversible: a text that already starts with `'` before a trigger gets one more, so
//   `inertCellValue` (for a reader of our own files: a product sheet imported back) gives back exactly what
//   was written.
// - UTF-8 with a byte-order mark when asked: Excel (on Windows and on the Mac) reads a CSV without one in
//   the system's legacy code page, and shows "Â·" for "·". Numbers, LibreOffice and Google Sheets drop it.

export type CsvCell = string | number | null;

export interface CsvOptions {
  /** Starts the text with U+FEFF, the UTF-8 byte-order mark Excel needs to read UTF-8. */
  bom: boolean;
}

/** A text that a spreadsheet would run: a formula trigger first (after white space), or a tab or CR. */
const TRIGGER = /^(?:[\t\r]|\s*[=+\-@])/;
/** The same after any quotes a neutralised cell (or the text itself) starts with. */
const NEEDS_PREFIX = /^'*(?:[\t\r]|\s*[=+\-@])/;

export const BYTE_ORDER_MARK = '\uFEFF';

/** Whether a spreadsheet would take this text as a formula. */
export function isFormulaLike(text: string): boolean {
  return TRIGGER.test(text);
}

/** A text cell as a spreadsheet reads it inert: `'` before a formula trigger (and before our own `'`). */
export function inertText(text: string): string {
  return NEEDS_PREFIX.test(text) ? `'${text}` : text;
}

/** The text `inertText` was given, from what it wrote (for a reader of Adbatch's own CSV files). */
export function inertCellValue(cell: string): string {
  return cell.startsWith("'") && NEEDS_PREFIX.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One field as written: a number as it is, a text inert and quoted when it must be (or was neutralised). */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = inertText(cell);
  return text !== cell || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV text: the header, then a record per row, CRLF after each. */
export function csvText(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  options: CsvOptions,
): string {
  const lines = [header, ...rows].map((fields) => fields.map(csvField).join(','));
  return `${options.bom ? BYTE_ORDER_MARK : ''}${lines.join('\r\n')}\r\n`;
}

/**
 * Whether CSV files start with the byte-order mark: what was asked (a CLI flag, a request), else the
 * preference, else on. A guess (docs/export.md): on everywhere, not only on Windows, because Excel on the
 * Mac needs it as much, and the people who open these files (a designer's manifest, an agency's statement)
 * open them in a spreadsheet far more than in a script (Python's `utf-8-sig` and pandas read it).
 */
export function csvBomOf(preference: { csvBom?: boolean }, asked?: boolean): boolean {
  return asked ?? preference.csvBom ?? true;
}
