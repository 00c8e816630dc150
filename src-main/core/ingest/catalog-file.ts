import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { megabytes } from '../../shared/byte-words.ts';
import { MAX_FIELD_CHARS } from '../../shared/contract/products.ts';
import type { ProductIdentity } from '../../shared/models.ts';
import {
  cellDelimiter,
  decodeSpreadsheet,
  guessedEncodingWarning,
  NotSpreadsheetTextError,
  type SpreadsheetText,
} from '../../shared/spreadsheet-text.ts';
import { IDENTITY_FIELDS } from '../../shared/vocabulary.ts';
import { describeFsFailure } from '../app/fs-refusal.ts';
import type { ProblemCode } from './types.ts';

// Catalogs of photos that are already public: a Shopify products export (`Handle`, `Title`, `Image Src`,
// `Image Position`; one row per image, the title only on a product's first row) or a simple list of
// `product,url[,position]` as CSV (with or without a header row) or JSON. Their URLs are used as they are.
// What a catalog says of a product's identity is kept with it (issue 29): Shopify's `Variant SKU`, `Handle`,
// `Title`, `Vendor` and `Image Alt Text`; a simple CSV's header may name `sku`, `handle`, `title`, `brand`
// (or `vendor`) and `alt` (or `alt text`) columns. A simple catalog's product column is its SKU when no
// column names one (the guess export made before identities were kept).

export interface CatalogProduct {
  /** The handle or product column: the product's path, as a folder's relative path is for files. */
  key: string;
  name: string;
  /** In position order, duplicates removed. */
  urls: string[];
  /**
   * Where each URL is in the file, as its user finds it: "row 12" (a spreadsheet's numbering, the header
   * row 1) or, in a JSON catalog, "item 3". The first place, when a URL is on several rows.
   */
  places: Record<string, string>;
  /** What the catalog says of its identity: each field's first non-empty value over the product's rows. */
  identity: Partial<ProductIdentity>;
}

export class CatalogError extends Error {}

export function isCatalogFile(path: string): boolean {
  return ['.csv', '.tsv', '.json'].includes(extname(path).toLowerCase());
}

const WORKBOOKS: Record<string, string> = {
  '.xlsx': 'an Excel workbook',
  '.xlsm': 'an Excel workbook',
  '.xls': 'an Excel workbook',
  '.numbers': 'a Numbers spreadsheet',
  '.ods': 'an OpenDocument spreadsheet',
};

/**
 * What a spreadsheet's own file is and how to make a catalog of it, or null for any other file. A designer's
 * product list is often a workbook; Adbatch reads the CSV every spreadsheet saves, not the workbook itself.
 */
export function workbookAdvice(path: string): string | null {
  const kind = WORKBOOKS[extname(path).toLowerCase()];
  return kind
    ? `${kind}, which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file as the catalog`
    : null;
}

interface Entry {
  key: string;
  name?: string;
  url: string;
  position: number | null;
  identity?: Partial<ProductIdentity>;
  /** Where it is in the file ("row 12", "item 3"). */
  place: string;
}

/**
 * Guesses, chosen to pass any real catalog and stop one that would stall the scan or fill every screen: a
 * cell of text (a product, a title, alt text) longer than the product sheet takes (MAX_FIELD_CHARS), a URL
 * longer than most servers take, a file far larger than a 100,000-row Shopify export.
 */
export const MAX_URL_CHARS = 8_192;
export const MAX_CATALOG_BYTES = 256 * 1024 * 1024;

const thousands = (value: number) => value.toLocaleString('en-US');

/** Each entry's cells within their limits, or a CatalogError naming the row, the column and the limit. */
function checkLimits(entries: readonly Entry[], file: string): void {
  for (const entry of entries) {
    const cells: Array<[string, string | undefined, number]> = [
      ['product', entry.key, MAX_FIELD_CHARS],
      ['title', entry.name, MAX_FIELD_CHARS],
      ['URL', entry.url, MAX_URL_CHARS],
      ...IDENTITY_FIELDS.map((field): [string, string | undefined, number] => [
        field,
        entry.identity?.[field],
        MAX_FIELD_CHARS,
      ]),
    ];
    for (const [column, value, limit] of cells) {
      if (value !== undefined && value.length > limit) {
        throw new CatalogError(
          `${file}: ${entry.place}: its ${column} is ${thousands(value.length)} characters long; the limit is ${thousands(limit)}`,
        );
      }
    }
  }
}

/**
 * A long number as Excel shows it in a General cell and then saves it as "CSV": `1.23457E+12` for a barcode
 * or a numeric SKU (`1,23457E+12` where the decimal mark is a comma). The digits past the sixth are gone
 * from the file, so two products can end up with one name; only the spreadsheet still has them.
 */
const EXCEL_SHORT_NUMBER = /^\d([.,]\d+)?E\+\d{1,3}$/i;
const SAVE_THE_WHOLE_NUMBER =
  'format that column as Number with no decimals (or as Text) in your spreadsheet and save it again';

/** A product named by a number Excel shortened: refused, since rows of other products may now share it. */
function checkShortNumbers(entries: readonly Entry[], file: string): void {
  const short = entries.find((entry) => EXCEL_SHORT_NUMBER.test(entry.key));
  if (short) {
    throw new CatalogError(
      `${file}: ${short.place}: its product ${short.key} is a number as Excel shows it short, its last digits lost (other products may now share it): ${SAVE_THE_WHOLE_NUMBER}`,
    );
  }
}

/** Each product whose SKU is a number Excel shortened: its exports would be named by the wrong number. */
function shortSkuWarnings(products: readonly CatalogProduct[]): string[] {
  return products
    .filter((product) => EXCEL_SHORT_NUMBER.test(product.identity.sku ?? ''))
    .map(
      (product) =>
        `${product.name}: its SKU ${product.identity.sku} is a number as Excel shows it short, its last digits lost (Amazon's file names need the whole SKU): ${SAVE_THE_WHOLE_NUMBER}`,
    );
}

function toProducts(entries: readonly Entry[], file: string): CatalogProduct[] {
  checkLimits(entries, file);
  checkShortNumbers(entries, file);
  const byKey = new Map<
    string,
    {
      name: string;
      items: Array<{ url: string; position: number | null; row: number; place: string }>;
      identity: Partial<ProductIdentity>;
    }
  >();
  entries.forEach((entry, row) => {
    const product = byKey.get(entry.key) ?? { name: entry.key, items: [], identity: {} };
    if (entry.name) product.name = product.name === entry.key ? entry.name : product.name;
    for (const field of IDENTITY_FIELDS) {
      const value = entry.identity?.[field];
      if (value && !product.identity[field]) product.identity[field] = value;
    }
    if (entry.url) {
      product.items.push({ url: withScheme(entry.url), position: entry.position, row, place: entry.place });
    }
    byKey.set(entry.key, product);
  });
  return [...byKey].map(([key, product]) => {
    const ordered = [...product.items].sort(
      (a, b) =>
        (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || a.row - b.row,
    );
    const places: Record<string, string> = {};
    for (const item of product.items) places[item.url] ??= item.place;
    return {
      key,
      name: product.name,
      urls: [...new Set(ordered.map((item) => item.url))],
      places,
      identity: product.identity,
    };
  });
}

/**
 * A URL written without its scheme (`//cdn.shopify.com/s/files/…`, as a shop theme's code writes image
 * links) is read as https, as a browser on the shop's page would read it; the service is handed it whole.
 * A guess: no shop serves its product photos over plain http any more.
 */
function withScheme(url: string): string {
  return url.startsWith('//') ? `https:${url}` : url;
}

function position(text: unknown): number | null {
  const value = Number(String(text ?? '').trim());
  return String(text ?? '').trim() !== '' && Number.isFinite(value) ? value : null;
}

function fromShopify(rows: ReadonlyArray<{ cells: Record<string, string>; row: number }>): Entry[] {
  return rows
    .filter(({ cells: row }) => row.Handle?.trim())
    .map(({ cells: row, row: number }) => ({
      key: row.Handle!.trim(),
      place: `row ${number}`,
      name: row.Title?.trim() || undefined,
      url: row['Image Src']?.trim() ?? '',
      position: position(row['Image Position']),
      identity: {
        sku: row['Variant SKU']?.trim() ?? '',
        handle: row.Handle!.trim(),
        title: row.Title?.trim() ?? '',
        brand: row.Vendor?.trim() ?? '',
        alt: row['Image Alt Text']?.trim() ?? '',
      },
    }));
}

/**
 * A header names its columns ("url", "Image URL"); a first row whose second cell is empty or holds a URL or
 * a path is a product row, whose mistakes must be reported rather than skipped as a header.
 */
function isHeader(cells: readonly string[]): boolean {
  const second = cells[1]?.trim() ?? '';
  return second !== '' && !/[/\\.:]/.test(second);
}

/** A simple catalog's columns by the names a header may give them (any case); unnamed ones by place. */
const SIMPLE_COLUMNS = {
  product: ['product', 'name'],
  url: ['url', 'image url', 'image src', 'image'],
  position: ['position', 'image position'],
  sku: ['sku', 'variant sku'],
  handle: ['handle'],
  title: ['title'],
  brand: ['brand', 'vendor'],
  alt: ['alt', 'alt text', 'image alt text'],
} as const;

type SimpleColumn = keyof typeof SIMPLE_COLUMNS;

function columnsOf(header: readonly string[] | null): Partial<Record<SimpleColumn, number>> {
  const named: Partial<Record<SimpleColumn, number>> = {};
  const names = header?.map((cell) => cell.trim().toLowerCase()) ?? [];
  for (const [column, spellings] of Object.entries(SIMPLE_COLUMNS) as Array<
    [SimpleColumn, readonly string[]]
  >) {
    const index = names.findIndex((name) => spellings.includes(name));
    if (index >= 0) named[column] = index;
  }
  return { product: 0, url: 1, position: 2, ...named };
}

/** `row` counts as a spreadsheet does: the header is row 1, blank lines count. */
function fromSimpleRows(rows: ReadonlyArray<{ cells: string[]; row: number }>, file: string): Entry[] {
  const header = rows.length > 0 && isHeader(rows[0]!.cells) ? rows[0]!.cells : null;
  const columns = columnsOf(header);
  const body = header ? rows.slice(1) : rows;
  return body.map(({ cells, row }) => {
    const cell = (column: SimpleColumn) => {
      const index = columns[column];
      return index === undefined ? '' : (cells[index]?.trim() ?? '');
    };
    const product = cell('product');
    const url = cell('url');
    if (!product || !url) {
      throw new CatalogError(`${file}: row ${row} needs a product and a URL (product,url[,position])`);
    }
    return {
      key: product,
      url,
      place: `row ${row}`,
      position: position(cell('position')),
      identity: {
        sku: cell('sku') || product,
        handle: cell('handle'),
        title: cell('title'),
        brand: cell('brand'),
        alt: cell('alt'),
      },
    };
  });
}

const jsonEntries = z.array(
  z.object({
    product: z.string().trim().min(1),
    url: z.string().trim().min(1),
    position: z.union([z.number(), z.string()]).optional().nullable(),
  }),
);

export function parseCatalog(text: string, file: string): CatalogProduct[] {
  const products = parseEntries(text.replace(/^\uFEFF/, ''), file);
  if (products.length === 0) throw new CatalogError(`${file}: no products in it`);
  return products;
}

function parseEntries(content: string, file: string): CatalogProduct[] {
  if (extname(file).toLowerCase() === '.json') {
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch (error) {
      throw new CatalogError(`${file}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = jsonEntries.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CatalogError(
        `${file}: expected a list of {"product", "url", "position"?} objects; at ${issue.path.join('.') || 'the top'}: ${issue.message}`,
      );
    }
    return toProducts(
      parsed.data.map((entry, index) => ({
        key: entry.product,
        url: entry.url,
        place: `item ${index + 1}`,
        position: position(entry.position),
        identity: { sku: entry.product },
      })),
      file,
    );
  }
  const { delimiter, body } = cellDelimiter(content, { tsv: extname(file).toLowerCase() === '.tsv' });
  let records: string[][];
  try {
    records = parse(body, {
      delimiter,
      // A file edited by hand may mix line endings; a stray quote in a name (`12" pizza`) is just text.
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      relax_column_count: true,
    }) as string[][];
  } catch (error) {
    throw new CatalogError(`${file}: not a readable CSV (${(error as Error).message})`);
  }
  const rows = records
    .map((cells, index) => ({ cells, row: index + 1 }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  const header = rows[0]?.cells.map((cell) => cell.trim()) ?? [];
  if (header.includes('Handle') && header.includes('Title') && !header.includes('Image Src')) {
    throw new CatalogError(`${file}: a Shopify export without an "Image Src" column: no photos to use`);
  }
  if (header.includes('Handle') && header.includes('Image Src')) {
    return toProducts(
      fromShopify(
        rows.slice(1).map(({ cells, row }) => ({
          cells: Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])),
          row,
        })),
      ),
      file,
    );
  }
  return toProducts(fromSimpleRows(rows, file), file);
}

/** A catalog's products, and what to warn of in it: a guessed code page, SKUs Excel shortened. */
export interface CatalogRead {
  products: CatalogProduct[];
  warnings: Array<{ code: Extract<ProblemCode, 'catalog_encoding' | 'short_number'>; reason: string }>;
}

export async function readCatalog(file: string): Promise<CatalogRead> {
  let read: SpreadsheetText;
  try {
    const { size } = await stat(file);
    if (size > MAX_CATALOG_BYTES) {
      throw new CatalogError(
        `${file}: ${megabytes(size)}, more than a catalog of photos holds (the limit is ${megabytes(MAX_CATALOG_BYTES)}): split it`,
      );
    }
    read = decodeSpreadsheet(await readFile(file));
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    if (error instanceof NotSpreadsheetTextError) throw new CatalogError(`${file} ${error.message}`);
    throw new CatalogError(describeFsFailure(error) ?? `${file}: unreadable (${String(error)})`);
  }
  const products = parseCatalog(read.text, file);
  const encoding = guessedEncodingWarning(read);
  return {
    products,
    warnings: [
      ...(encoding ? [{ code: 'catalog_encoding' as const, reason: encoding }] : []),
      ...shortSkuWarnings(products).map((reason) => ({ code: 'short_number' as const, reason })),
    ],
  };
}
