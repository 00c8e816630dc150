import { megabytes } from './byte-words.ts';

// A spreadsheet's CSV as the text its author typed, whichever spreadsheet saved it: a catalog of photos
// (core/ingest/catalog-file.ts) or a product sheet read back (core/products/sheet-csv.ts, its bytes decoded
// by the CLI or the app's page). Google Sheets, Numbers
// and Shopify write UTF-8; Excel writes UTF-8 only when told "CSV UTF-8": its plain "CSV" is the computer's
// legacy code page (Windows-1252 on a Western Windows, Mac Roman in older Excel for Mac), and its "Unicode
// Text" is UTF-16. Read as UTF-8 regardless, "Café" came out "Caf�" in the product sheet, its exports and
// the Shopify import file, with no word said.

export type SpreadsheetEncoding = 'UTF-8' | 'UTF-16' | 'Windows-1252' | 'Mac Roman';

/**
 * The most bytes a product sheet's file read back may have (`products:importCsv` takes as many characters):
 * a batch of 10,000 products is a few megabytes. Said before the file is read, never as the channel's check.
 */
export const MAX_SHEET_BYTES = 50_000_000;

/** A product sheet's file too big to be one, in words to put after its name; null when it is not. */
export function sheetTooBigWords(bytes: number): string | null {
  return bytes > MAX_SHEET_BYTES
    ? `is ${megabytes(bytes)}: more than a product sheet holds (at most ${megabytes(MAX_SHEET_BYTES)}, a row a product). Choose the sheet of a batch, saved as CSV.`
    : null;
}

export interface SpreadsheetText {
  text: string;
  encoding: SpreadsheetEncoding;
  /** True when the bytes named no encoding and were not UTF-8: the legacy code page is a guess. */
  guessed: boolean;
}

const decode = (label: string, bytes: Uint8Array) => new TextDecoder(label).decode(bytes);

/** UTF-16 written without its byte order mark: every other byte of plain text is zero. */
function utf16WithoutMark(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, 512) & ~1);
  if (sample.length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.7 && evenZeros === 0) return 'utf-16le';
  if (evenZeros > pairs * 0.7 && oddZeros === 0) return 'utf-16be';
  return null;
}

/**
 * How many of the text's non-ASCII characters fit the letters beside them: a lowercase letter after or
 * before a lowercase ASCII letter, an uppercase one beside an uppercase. The same byte is "é" in
 * Windows-1252 and "È" in Mac Roman; inside "Caf_" only one of them is likely.
 */
function plausibility(text: string): number {
  let score = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char.charCodeAt(0) < 0x80) continue;
    const around = `${text[i - 1] ?? ''}${text[i + 1] ?? ''}`;
    if (/\p{Cc}/u.test(char)) score -= 2;
    else if (/\p{Ll}/u.test(char) && /[a-z]/.test(around)) score++;
    else if (/\p{Lu}/u.test(char) && /[A-Z]/.test(around)) score++;
  }
  return score;
}

/**
 * A file given as a CSV that holds no text: a spreadsheet's own file, an image, a PDF. Its message says what
 * it is and what to do, for the caller to put after the file's name. Read as text, an Excel workbook gave
 * "The file's first row names no "Product id" or "Name" column", and an image a parse error quoting its bytes.
 */
export class NotSpreadsheetTextError extends Error {
  override name = 'NotSpreadsheetTextError';
}

/** Files known by their first bytes: what each is, and whether a spreadsheet saved it (as its own file). */
const SIGNATURES: ReadonlyArray<{ bytes: readonly number[]; kind: string; spreadsheet: boolean }> = [
  // xlsx, Numbers and OpenDocument files are zips.
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    kind: 'a spreadsheet’s own file (an Excel workbook, a Numbers or an OpenDocument sheet)',
    spreadsheet: true,
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    kind: 'an Excel workbook of the older kind (.xls)',
    spreadsheet: true,
  },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'a PDF', spreadsheet: false },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image', spreadsheet: false },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'a PNG image', spreadsheet: false },
];
/** GUESS: control characters (tab and line ends aside) in more than this share of the bytes are no text. */
const CONTROL_SHARE = 0.01;

/** What the bytes are when they are no text, in words, and what to do; null for text. */
function notTextWords(bytes: Uint8Array): string | null {
  const known = SIGNATURES.find((signature) => signature.bytes.every((byte, at) => bytes[at] === byte));
  if (known?.spreadsheet) {
    return `is ${known.kind}, which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file.`;
  }
  const instead = 'choose the file that lists the products as text (a spreadsheet saves it as "CSV UTF-8").';
  if (known) return `is ${known.kind}, not text: ${instead}`;
  const sample = bytes.subarray(0, 65_536);
  let control = 0;
  for (const byte of sample) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) control++;
  }
  // A zero byte is no text: a legacy code page's has none, and UTF-16's was recognised before.
  if (sample.includes(0) || control > sample.length * CONTROL_SHARE) {
    return `holds no text (its bytes are another program’s): ${instead}`;
  }
  return null;
}

/**
 * The file's text: a byte order mark decides, then UTF-8 if the bytes are valid UTF-8, then a guess. Bytes
 * that are no text (a workbook, an image) are a NotSpreadsheetTextError.
 */
export function decodeSpreadsheet(bytes: Uint8Array): SpreadsheetText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: decode('utf-8', bytes.subarray(3)), encoding: 'UTF-8', guessed: false };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: decode('utf-16le', bytes.subarray(2)), encoding: 'UTF-16', guessed: false };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: decode('utf-16be', bytes.subarray(2)), encoding: 'UTF-16', guessed: false };
  }
  const utf16 = utf16WithoutMark(bytes);
  if (utf16) return { text: decode(utf16, bytes), encoding: 'UTF-16', guessed: false };
  const notText = notTextWords(bytes);
  if (notText) throw new NotSpreadsheetTextError(notText);
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'UTF-8',
      guessed: false,
    };
  } catch {
    // Not UTF-8: one of the legacy code pages a spreadsheet writes. Ties go to Windows-1252, the commoner.
    const windows = decode('windows-1252', bytes);
    const mac = decode('macintosh', bytes);
    return plausibility(mac) > plausibility(windows)
      ? { text: mac, encoding: 'Mac Roman', guessed: true }
      : { text: windows, encoding: 'Windows-1252', guessed: true };
  }
}

/**
 * What a guessed code page should say to the person who dropped the file: what it was read as, a word or
 * two of it as read, and how to make it certain.
 */
export function guessedEncodingWarning(read: SpreadsheetText): string | null {
  if (!read.guessed) return null;
  // A word is cut at a cell's edge as well as at a space: "Café", not the whole row before it.
  const words = [...new Set(read.text.match(/[^\s,;"]*[\u0080-\uffff][^\s,;"]*/g) ?? [])];
  const shown = words
    .slice(0, 3)
    .map((word) => `"${word.length > 40 ? `${word.slice(0, 39)}…` : word}"`)
    .join(', ');
  const more = words.length > 3 ? ` and ${words.length - 3} more` : '';
  return `not UTF-8: read as ${read.encoding} (${shown}${more}); if a name reads wrong, save the file from your spreadsheet as "CSV UTF-8" and use that file`;
}

/**
 * The character between a CSV's cells: what its first line holds most of outside quotes among comma,
 * semicolon and tab (Excel saves "CSV" with semicolons wherever the decimal mark is a comma: German, French,
 * Italian, Spanish, Dutch… settings), a comma unless another leads; a tab always for a `.tsv`. A first line
 * `sep=;` (Excel's own way to say it) decides and is not a row: `body` is the text without it.
 */
export function cellDelimiter(
  content: string,
  options: { tsv?: boolean } = {},
): { delimiter: string; body: string } {
  const declared = /^sep=(.)\r?\n/.exec(content);
  if (declared) return { delimiter: declared[1]!, body: content.slice(declared[0].length) };
  if (options.tsv) return { delimiter: '\t', body: content };
  const firstLine = content.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const count = (char: string) => unquoted.split(char).length - 1;
  // The comma comes first, so that it keeps a tie.
  const delimiter = [',', ';', '\t'].reduce((leader, char) => (count(char) > count(leader) ? char : leader));
  return { delimiter, body: content };
}
