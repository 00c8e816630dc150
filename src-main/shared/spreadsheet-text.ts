// A spreadsheet's CSV as the text its author typed, whichever spreadsheet saved it: a catalog of photos
// (core/ingest/catalog-file.ts) or a product sheet read back (core/products/sheet-csv.ts, its bytes decoded
// by the CLI or the app's page). Google Sheets, Numbers
// and Shopify write UTF-8; Excel writes UTF-8 only when told "CSV UTF-8": its plain "CSV" is the computer's
// legacy code page (Windows-1252 on a Western Windows, Mac Roman in older Excel for Mac), and its "Unicode
// Text" is UTF-16. Read as UTF-8 regardless, "Café" came out "Caf�" in the product sheet, its exports and
// the Shopify import file, with no word said.

export type SpreadsheetEncoding = 'UTF-8' | 'UTF-16' | 'Windows-1252' | 'Mac Roman';

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

/** The file's text: a byte order mark decides, then UTF-8 if the bytes are valid UTF-8, then a guess. */
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
