import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalog, readCatalog } from '../../../../src-main/core/ingest/catalog-file.ts';
import {
  decodeSpreadsheet,
  guessedEncodingWarning,
  NotSpreadsheetTextError,
} from '../../../../src-main/shared/spreadsheet-text.ts';
import { jpeg } from '../../../support/bad-inputs.ts';
import { workbookBytes } from '../../../support/workbook.ts';

// A catalog as each spreadsheet saves it: the bytes of "Café – Müller" in every encoding one writes, and
// the cells split as Excel splits them where a comma is the decimal mark.

const TEXT = 'product,url,title\nmug,https://cdn.example.com/mug.jpg,Café – Müller\n';
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

/** TEXT as Windows-1252 (é and ü as in Latin-1, the en dash 0x96) and as Mac Roman (é 0x8E, ü 0x9F, – 0xD0). */
const WINDOWS_1252 = bytes(
  'product,url,title\nmug,https://cdn.example.com/mug.jpg,Caf',
  [0xe9, 0x20, 0x96],
  ' M',
  [0xfc],
  'ller\n',
);
const MAC_ROMAN = bytes(
  'product,url,title\nmug,https://cdn.example.com/mug.jpg,Caf',
  [0x8e, 0x20, 0xd0],
  ' M',
  [0x9f],
  'ller\n',
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-catalog-text-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('decodeSpreadsheet', () => {
  it('reads UTF-8, with or without its byte order mark, as it is', () => {
    expect(decodeSpreadsheet(Buffer.from(TEXT))).toEqual({ text: TEXT, encoding: 'UTF-8', guessed: false });
    expect(decodeSpreadsheet(Buffer.from(`\uFEFF${TEXT}`))).toEqual({
      text: TEXT,
      encoding: 'UTF-8',
      guessed: false,
    });
  });

  it('reads UTF-16 either way round, with its mark or without (Excel\'s "Unicode Text")', () => {
    const le = Buffer.from(TEXT, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const encoded of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), le]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
      le,
      be,
    ]) {
      expect(decodeSpreadsheet(encoded)).toEqual({ text: TEXT, encoding: 'UTF-16', guessed: false });
    }
  });

  it('reads bytes that are not UTF-8 as the code page whose letters fit their words, and says it guessed', () => {
    expect(decodeSpreadsheet(WINDOWS_1252)).toEqual({ text: TEXT, encoding: 'Windows-1252', guessed: true });
    expect(decodeSpreadsheet(MAC_ROMAN)).toEqual({ text: TEXT, encoding: 'Mac Roman', guessed: true });
    // Nothing to tell them apart (a lone byte between spaces): the commoner, Windows-1252.
    expect(decodeSpreadsheet(bytes('a ', [0xa9], ' b')).encoding).toBe('Windows-1252');
  });
});

describe('guessedEncodingWarning', () => {
  it('says nothing of an encoding the bytes named', () => {
    expect(guessedEncodingWarning(decodeSpreadsheet(Buffer.from(TEXT)))).toBeNull();
  });

  it('names the guess, a few words as read (cut at the cells), and how to make it certain', () => {
    expect(guessedEncodingWarning(decodeSpreadsheet(WINDOWS_1252))).toBe(
      'not UTF-8: read as Windows-1252 ("Café", "–", "Müller"); if a name reads wrong, save the file from your spreadsheet as "CSV UTF-8" and use that file',
    );
    const many = bytes('product,url\n', ...['á', 'é', 'í', 'ó', 'ú'].map((char) => `${char},u\n`));
    expect(guessedEncodingWarning(decodeSpreadsheet(many))).toMatch(
      /^not UTF-8: read as Windows-1252 \("á", "é", "í" and 2 more\);/,
    );
  });
});

describe('a catalog saved by Excel where the comma is the decimal mark', () => {
  it('splits its cells at semicolons, quoted ones kept whole', () => {
    const csv = 'product;url;title;price\nmug;https://cdn.example.com/mug.jpg;"Mug; blue";4,50\n';
    expect(parseCatalog(csv, 'mugs.csv')).toEqual([
      expect.objectContaining({
        key: 'mug',
        urls: ['https://cdn.example.com/mug.jpg'],
        identity: expect.objectContaining({ title: 'Mug; blue' }),
      }),
    ]);
  });

  it('takes the separator a first "sep=" line names, and numbers rows after it as Excel shows them', () => {
    const csv = 'sep=|\nproduct|url\nmug|https://cdn.example.com/mug.jpg\ncup|\n';
    expect(() => parseCatalog(csv, 'mugs.csv')).toThrow('mugs.csv: row 3 needs a product and a URL');
  });

  it('still splits at commas where commas lead, a semicolon inside a URL or a title kept', () => {
    const csv = 'product,url,title\nmug,https://cdn.example.com/a;b.jpg,Mug; blue\n';
    expect(parseCatalog(csv, 'mugs.csv')).toEqual([
      expect.objectContaining({
        urls: ['https://cdn.example.com/a;b.jpg'],
        identity: expect.objectContaining({ title: 'Mug; blue' }),
      }),
    ]);
  });
});

describe('a number Excel showed short and saved so', () => {
  it('refuses a catalog whose products are named by one, naming the row and how to save the whole number', () => {
    const csv =
      'product,url\n4006381333931,https://cdn.example.com/a.jpg\n4.00638E+12,https://cdn.example.com/b.jpg\n';
    expect(() => parseCatalog(csv, 'barcodes.csv')).toThrow(
      'barcodes.csv: row 3: its product 4.00638E+12 is a number as Excel shows it short, its last digits lost (other products may now share it): format that column as Number with no decimals (or as Text) in your spreadsheet and save it again',
    );
  });

  it('reads a catalog whose SKUs are, with a warning naming each such product', async () => {
    const csv = [
      'product,url,sku',
      'Mug,https://cdn.example.com/mug.jpg,4.00638E+12',
      'Cup,https://cdn.example.com/cup.jpg,CUP-1',
      'Bowl,https://cdn.example.com/bowl.jpg,1E+15',
      // Not Excel's short form: kept as they are, said of nothing.
      'Plate,https://cdn.example.com/plate.jpg,E+12',
    ].join('\n');
    const file = join(dir, 'skus.csv');
    await writeFile(file, csv);
    const read = await readCatalog(file);
    expect(read.products.map((product) => product.identity.sku)).toEqual([
      '4.00638E+12',
      'CUP-1',
      '1E+15',
      'E+12',
    ]);
    expect(read.warnings.map((warning) => [warning.code, warning.reason.split(':')[0]])).toEqual([
      ['short_number', 'Mug'],
      ['short_number', 'Bowl'],
    ]);
  });
});

describe('readCatalog', () => {
  it('gives the products of a Windows-1252 file with their accents, and the warning beside them', async () => {
    const file = join(dir, 'excel.csv');
    await writeFile(file, WINDOWS_1252);
    const read = await readCatalog(file);
    expect(read.products.map((product) => product.identity.title)).toEqual(['Café – Müller']);
    expect(read.warnings).toEqual([
      { code: 'catalog_encoding', reason: expect.stringMatching(/^not UTF-8: read as Windows-1252/) },
    ]);
  });
});

describe('a file that holds no text', () => {
  const saveAs = 'save it from your spreadsheet as "CSV UTF-8" and use that file.';
  const choose = 'choose the file that lists the products as text (a spreadsheet saves it as "CSV UTF-8").';
  const said = (content: Uint8Array) => {
    try {
      decodeSpreadsheet(content);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(NotSpreadsheetTextError);
      return (error as Error).message;
    }
  };

  it('is refused by what it is, with what to do, never read as text', async () => {
    expect(said(await workbookBytes())).toBe(
      `is a spreadsheet’s own file (an Excel workbook, a Numbers or an OpenDocument sheet), which Adbatch does not read: ${saveAs}`,
    );
    const xls = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(504),
    ]);
    expect(said(xls)).toBe(
      `is an Excel workbook of the older kind (.xls), which Adbatch does not read: ${saveAs}`,
    );
    expect(said(await jpeg(64, 48))).toBe(`is a JPEG image, not text: ${choose}`);
    expect(said(Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj', 'latin1'))).toBe(`is a PDF, not text: ${choose}`);
    // Bytes of no kind it knows: every value in turn, zero bytes among them.
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, at) => (at * 7) % 256));
    expect(said(binary)).toBe(`holds no text (its bytes are another program’s): ${choose}`);
  });

  it('still reads text with a stray control character, and UTF-16 with its zero bytes', () => {
    // A form feed a legacy export left in a cell: one byte in hundreds is still text.
    const strayed = Buffer.concat([WINDOWS_1252, Buffer.from([0x0c]), WINDOWS_1252, WINDOWS_1252]);
    expect(said(strayed)).toBeNull();
    expect(said(Buffer.from(TEXT, 'utf16le'))).toBeNull();
  });

  it('is refused as a catalog, naming the file, when a workbook is given a .csv name', async () => {
    const file = join(dir, 'catalog.csv');
    await writeFile(file, await workbookBytes());
    await expect(readCatalog(file)).rejects.toThrow(
      `${file} is a spreadsheet’s own file (an Excel workbook, a Numbers or an OpenDocument sheet), which Adbatch does not read: ${saveAs}`,
    );
  });
});
