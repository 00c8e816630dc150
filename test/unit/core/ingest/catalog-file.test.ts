import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogError,
  isCatalogFile,
  MAX_CATALOG_BYTES,
  parseCatalog,
  readCatalog,
} from '../../../../src-main/core/ingest/catalog-file.ts';

// Catalogs of public photo URLs as people actually have them: a Shopify products export (one row per image
// and per variant, quoted multi-line HTML, a BOM, Excel's CRLF) and the simple product,url[,position] lists.

const CDN = 'https://cdn.shopify.com/s/files/1/0000/0001/products';

/** A CSV cell as Shopify writes it: quoted when it holds a comma, quote or line break. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const SHOPIFY_COLUMNS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'Variant Image',
  'Status',
] as const;
type Column = (typeof SHOPIFY_COLUMNS)[number];

function shopifyCsv(rows: Array<Partial<Record<Column, string>>>): string {
  const lines = [
    SHOPIFY_COLUMNS.join(','),
    ...rows.map((row) => SHOPIFY_COLUMNS.map((c) => cell(row[c] ?? '')).join(',')),
  ];
  // Shopify's export opened and saved again in Excel: a BOM and CRLF line ends (the HTML keeps its LFs).
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const CAP_BODY = [
  '<p>A six-panel cap, in <strong>red, gray or black</strong>.</p>',
  '<ul>',
  '  <li>100% cotton twill, "washed" finish</li>',
  '  <li>Adjustable strap, one size</li>',
  '</ul>',
  '',
  '<p>Image Src,Image Position: not columns, just words.</p>',
].join('\n');

const SHOPIFY_EXPORT = shopifyCsv([
  // A product with variants: Title and body on its first row only, images out of order, one variant row
  // without an image, and an image-only row at the end.
  {
    Handle: 'solidus-cap',
    Title: 'Solidus Cap',
    'Body (HTML)': CAP_BODY,
    Vendor: 'Solidus',
    Type: 'Caps',
    Tags: 'cap, cotton, summer',
    Published: 'TRUE',
    'Option1 Name': 'Color',
    'Option1 Value': 'Red',
    'Variant SKU': 'CAP-RED',
    'Variant Price': '19.00',
    'Image Src': `${CDN}/cap_red_2.png?v=1700000002`,
    'Image Position': '2',
    'Image Alt Text': 'Cap, side view',
    'Variant Image': `${CDN}/cap_red_1.png?v=1700000001`,
    Status: 'active',
  },
  {
    Handle: 'solidus-cap',
    'Option1 Value': 'Gray',
    'Variant SKU': 'CAP-GRAY',
    'Variant Price': '19.00',
    'Image Src': `${CDN}/cap_red_1.png?v=1700000001`,
    'Image Position': '1',
  },
  { Handle: 'solidus-cap', 'Option1 Value': 'Black', 'Variant SKU': 'CAP-BLACK', 'Variant Price': '21.00' },
  { Handle: 'solidus-cap', 'Image Src': `${CDN}/cap_red_3.png?v=1700000003`, 'Image Position': '3' },
  // Title on the first row only; the hero is on the second row.
  {
    Handle: 'canvas-tote',
    Title: 'Canvas Tote, Natural',
    'Body (HTML)': '<p>Holds a week of groceries.\nOr a laptop, two books and a lunch.</p>',
    Published: 'TRUE',
    'Variant SKU': 'TOTE-1',
    'Variant Price': '24.00',
    'Image Src': `${CDN}/tote_back.png`,
    'Image Position': '2',
    Status: 'active',
  },
  { Handle: 'canvas-tote', 'Image Src': `${CDN}/tote_front.png`, 'Image Position': '1' },
  // No title at all: named after its handle. The same image twice (a variant image repeated): used once.
  {
    Handle: 'bucket-hat',
    Published: 'FALSE',
    'Variant SKU': 'HAT-1',
    'Image Src': `${CDN}/hat.png`,
    'Image Position': '1',
    Status: 'draft',
  },
  { Handle: 'bucket-hat', 'Image Src': `${CDN}/hat_detail.png`, 'Image Position': '3' },
  { Handle: 'bucket-hat', 'Image Src': `${CDN}/hat.png`, 'Image Position': '2' },
  // A product whose rows have no image at all: kept, with no URLs (the scan says it has no photos).
  { Handle: 'gift-card', Title: 'Gift Card', 'Gift Card': 'TRUE', 'Variant SKU': 'GIFT-25' },
  { Handle: 'gift-card', 'Option1 Value': '50', 'Variant SKU': 'GIFT-50' },
]);

describe('parseCatalog: a Shopify products export', () => {
  const products = parseCatalog(SHOPIFY_EXPORT, 'products_export_1.csv');

  it('finds every product, in the order they first appear, named by Title else by handle', () => {
    expect(products.map((product) => [product.key, product.name])).toEqual([
      ['solidus-cap', 'Solidus Cap'],
      ['canvas-tote', 'Canvas Tote, Natural'],
      ['bucket-hat', 'bucket-hat'],
      ['gift-card', 'Gift Card'],
    ]);
  });

  it('orders images by Image Position, skips variant rows without one, and keeps query strings', () => {
    expect(products[0]!.urls).toEqual([
      `${CDN}/cap_red_1.png?v=1700000001`,
      `${CDN}/cap_red_2.png?v=1700000002`,
      `${CDN}/cap_red_3.png?v=1700000003`,
    ]);
    expect(products[1]!.urls).toEqual([`${CDN}/tote_front.png`, `${CDN}/tote_back.png`]);
  });

  it('uses a repeated image once, at its first position', () => {
    expect(products[2]!.urls).toEqual([`${CDN}/hat.png`, `${CDN}/hat_detail.png`]);
  });

  it('keeps a product without images, with no URLs', () => {
    expect(products[3]!.urls).toEqual([]);
  });

  it('is not fooled by commas, quotes, line breaks or column names inside the quoted HTML', () => {
    // Every URL is a real Image Src, each exactly once: nothing from the body leaked into a column.
    const imageSrcs = [...SHOPIFY_EXPORT.matchAll(/https:\/\/cdn\.shopify\.com\/[^,"\r\n]+/g)].map(
      (m) => m[0],
    );
    const used = products.flatMap((product) => product.urls);
    expect(new Set(used).size).toBe(used.length);
    expect(used.every((url) => imageSrcs.includes(url))).toBe(true);
    expect(used).toHaveLength(7);
  });

  it('reads the same export without a BOM, with LF line ends', () => {
    const plain = SHOPIFY_EXPORT.replace(/^\uFEFF/, '').replaceAll('\r\n', '\n');
    expect(parseCatalog(plain, 'products_export_1.csv')).toEqual(products);
  });

  it('puts images without a position after the numbered ones, in row order', () => {
    const csv = [
      'Handle,Title,Image Src,Image Position',
      'mug,Mug Set,https://x.test/b.png,',
      'mug,,https://x.test/c.png,2',
      'mug,,https://x.test/a.png,',
      'mug,,https://x.test/d.png,1',
    ].join('\n');
    expect(parseCatalog(csv, 'mugs.csv')).toEqual([
      {
        key: 'mug',
        name: 'Mug Set',
        urls: [
          'https://x.test/d.png',
          'https://x.test/c.png',
          'https://x.test/b.png',
          'https://x.test/a.png',
        ],
        // Where each is, as a spreadsheet numbers its rows (the header row 1).
        places: {
          'https://x.test/b.png': 'row 2',
          'https://x.test/c.png': 'row 3',
          'https://x.test/a.png': 'row 4',
          'https://x.test/d.png': 'row 5',
        },
        identity: { handle: 'mug', title: 'Mug Set' },
      },
    ]);
  });

  it('refuses a Shopify export without an Image Src column, naming the file', () => {
    const csv = 'Handle,Title,Variant SKU,Variant Price\ncap,Cap,CAP-1,19.00\n';
    expect(() => parseCatalog(csv, 'inventory.csv')).toThrow(CatalogError);
    expect(() => parseCatalog(csv, 'inventory.csv')).toThrow(/^inventory\.csv: .*"Image Src"/);
  });
});

describe('parseCatalog: simple product,url[,position] lists', () => {
  it('reads a CSV with a header and positions, ordering and deduplicating', () => {
    const csv = [
      'product,url,position',
      'tote,https://img.test/tote-2.jpg,2',
      'tote,https://img.test/tote-1.jpg,1',
      'cap,https://img.test/cap.jpg,1',
      'tote,https://img.test/tote-1.jpg,3',
    ].join('\n');
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://img.test/tote-1.jpg', 'https://img.test/tote-2.jpg'],
        // A URL on two rows is placed at its first.
        places: { 'https://img.test/tote-2.jpg': 'row 2', 'https://img.test/tote-1.jpg': 'row 3' },
        identity: { sku: 'tote' },
      },
      {
        key: 'cap',
        name: 'cap',
        urls: ['https://img.test/cap.jpg'],
        places: { 'https://img.test/cap.jpg': 'row 4' },
        identity: { sku: 'cap' },
      },
    ]);
  });

  it('reads a CSV without a header or positions, in row order', () => {
    const csv = 'tote,https://img.test/b.jpg\ncap,http://img.test/cap.jpg\ntote,https://img.test/a.jpg\n';
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://img.test/b.jpg', 'https://img.test/a.jpg'],
        places: { 'https://img.test/b.jpg': 'row 1', 'https://img.test/a.jpg': 'row 3' },
        identity: { sku: 'tote' },
      },
      {
        key: 'cap',
        name: 'cap',
        urls: ['http://img.test/cap.jpg'],
        places: { 'http://img.test/cap.jpg': 'row 2' },
        identity: { sku: 'cap' },
      },
    ]);
  });

  it('reads a URL written without its scheme, as a shop theme writes one, as https', () => {
    const csv = 'tote,//cdn.shopify.com/s/files/tote.jpg\ncap,https://img.test/cap.jpg\n';
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://cdn.shopify.com/s/files/tote.jpg'],
        places: { 'https://cdn.shopify.com/s/files/tote.jpg': 'row 1' },
        identity: { sku: 'tote' },
      },
      {
        key: 'cap',
        name: 'cap',
        urls: ['https://img.test/cap.jpg'],
        places: { 'https://img.test/cap.jpg': 'row 2' },
        identity: { sku: 'cap' },
      },
    ]);
    const json = JSON.stringify([{ product: 'mug', url: '//cdn.example.com/mug.jpg' }]);
    expect(parseCatalog(json, 'list.json')[0]!.urls).toEqual(['https://cdn.example.com/mug.jpg']);
  });

  it('reads a header in other words, blank lines, spaces, CRLF and a BOM', () => {
    const csv = '\uFEFFProduct Name, Image URL\r\n\r\n  tote , https://img.test/t.jpg \r\n\r\n';
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://img.test/t.jpg'],
        // Blank lines count, as in a spreadsheet.
        places: { 'https://img.test/t.jpg': 'row 3' },
        identity: { sku: 'tote' },
      },
    ]);
  });

  it('reads a name with a stray quote, and a file whose line ends are mixed', () => {
    const csv = 'product,url\r\nPizza stone 12",https://img.test/p.jpg\nPeel,https://img.test/peel.jpg\n';
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'Pizza stone 12"',
        name: 'Pizza stone 12"',
        urls: ['https://img.test/p.jpg'],
        places: { 'https://img.test/p.jpg': 'row 2' },
        identity: { sku: 'Pizza stone 12"' },
      },
      {
        key: 'Peel',
        name: 'Peel',
        urls: ['https://img.test/peel.jpg'],
        places: { 'https://img.test/peel.jpg': 'row 3' },
        identity: { sku: 'Peel' },
      },
    ]);
  });

  it('reads a TSV, with and without a header', () => {
    const withHeader =
      'product\turl\tposition\nmug, large\thttps://img.test/m2.jpg\t2\nmug, large\thttps://img.test/m1.jpg\t1\n';
    expect(parseCatalog(withHeader, 'list.TSV')).toEqual([
      {
        key: 'mug, large',
        name: 'mug, large',
        urls: ['https://img.test/m1.jpg', 'https://img.test/m2.jpg'],
        places: { 'https://img.test/m2.jpg': 'row 2', 'https://img.test/m1.jpg': 'row 3' },
        identity: { sku: 'mug, large' },
      },
    ]);
    expect(parseCatalog('mug\thttps://img.test/m.jpg\n', 'list.tsv')).toEqual([
      {
        key: 'mug',
        name: 'mug',
        urls: ['https://img.test/m.jpg'],
        places: { 'https://img.test/m.jpg': 'row 1' },
        identity: { sku: 'mug' },
      },
    ]);
  });

  it('refuses a row without a URL, naming the file and the row as a spreadsheet numbers it', () => {
    const csv = 'product,url\ntote,https://img.test/t.jpg\n\ncap\n';
    expect(() => parseCatalog(csv, 'list.csv')).toThrow(CatalogError);
    expect(() => parseCatalog(csv, 'list.csv')).toThrow(
      'list.csv: row 4 needs a product and a URL (product,url[,position])',
    );
  });

  it('refuses a first row without a URL rather than taking it for a header', () => {
    const csv = 'tote,\ncap,https://img.test/cap.jpg\n';
    expect(() => parseCatalog(csv, 'list.csv')).toThrow(/^list\.csv: row 1 needs a product and a URL/);
  });

  it('refuses a row with a URL but no product', () => {
    expect(() => parseCatalog('cap,https://img.test/c.jpg\n,https://img.test/d.jpg\n', 'l.csv')).toThrow(
      /^l\.csv: row 2 needs a product and a URL/,
    );
  });

  it('refuses a CSV it cannot read, and one with nothing in it', () => {
    expect(() => parseCatalog('"tote,https://img.test/t.jpg\n', 'broken.csv')).toThrow(
      /^broken\.csv: not a readable CSV/,
    );
    expect(() => parseCatalog('', 'empty.csv')).toThrow('empty.csv: no products in it');
    expect(() => parseCatalog('\uFEFFproduct,url\n', 'header-only.csv')).toThrow(
      'header-only.csv: no products in it',
    );
  });
});

describe('parseCatalog: what a catalog says of a product (issue 29)', () => {
  it("keeps a Shopify export's Variant SKU, Handle, Title, Vendor and first alt text", () => {
    const csv = [
      'Handle,Title,Vendor,Variant SKU,Image Src,Image Position,Image Alt Text',
      'cap,Solidus Cap,Solidus,,https://x.test/2.png,2,The back',
      'cap,,,CAP-RED-1,https://x.test/1.png,1,',
      'cap,,,CAP-RED-2,,,',
    ].join('\n');
    expect(parseCatalog(csv, 'shop.csv')[0]!.identity).toEqual({
      sku: 'CAP-RED-1',
      handle: 'cap',
      title: 'Solidus Cap',
      brand: 'Solidus',
      alt: 'The back',
    });
  });

  it("reads a simple CSV's named columns in any order and case; its product column is the SKU without one", () => {
    const csv = 'URL,Product,Brand,SKU,Alt text\nhttps://img.test/t.jpg,tote,Solidus,T-1,A tote\n';
    expect(parseCatalog(csv, 'list.csv')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://img.test/t.jpg'],
        places: { 'https://img.test/t.jpg': 'row 2' },
        identity: { sku: 'T-1', brand: 'Solidus', alt: 'A tote' },
      },
    ]);
    expect(parseCatalog('product,url\nmug,https://img.test/m.jpg\n', 'l.csv')[0]!.identity).toEqual({
      sku: 'mug',
    });
  });
});

describe('parseCatalog: cells no catalog holds', () => {
  it('refuses a product, a title or a URL longer than its limit, naming the row or item and the column', () => {
    const long = 'x'.repeat(50_000);
    expect(() => parseCatalog(`product,url\n${long},https://img.test/a.jpg\n`, 'big.csv')).toThrow(
      'big.csv: row 2: its product is 50,000 characters long; the limit is 2,000',
    );
    expect(() => parseCatalog(`product,url,alt\ncap,https://img.test/a.jpg,${long}\n`, 'alt.csv')).toThrow(
      'alt.csv: row 2: its alt is 50,000 characters long; the limit is 2,000',
    );
    expect(() =>
      parseCatalog(`Handle,Title,Image Src\ncap,${long},https://img.test/a.jpg\n`, 'products_export.csv'),
    ).toThrow('products_export.csv: row 2: its title is 50,000 characters long; the limit is 2,000');
    expect(() =>
      parseCatalog(JSON.stringify([{ product: 'cap', url: `https://img.test/${long}.jpg` }]), 'c.json'),
    ).toThrow('c.json: item 1: its URL is 50,021 characters long; the limit is 8,192');
    // At the limit, read.
    const most = 'y'.repeat(2_000);
    expect(parseCatalog(`product,url\n${most},https://img.test/a.jpg\n`, 'ok.csv')[0]!.name).toBe(most);
  });
});

describe('parseCatalog: JSON', () => {
  it('reads a list of {product, url, position?}, positions as numbers or text', () => {
    const json = JSON.stringify([
      { product: 'tote', url: 'https://img.test/t2.jpg', position: '2' },
      { product: 'tote', url: 'https://img.test/t1.jpg', position: 1 },
      { product: 'cap', url: 'https://img.test/c.jpg' },
      { product: 'tote', url: 'https://img.test/t3.jpg', position: null },
      { product: 'tote', url: 'https://img.test/t1.jpg', position: 5 },
    ]);
    expect(parseCatalog(`\uFEFF${json}`, 'list.json')).toEqual([
      {
        key: 'tote',
        name: 'tote',
        urls: ['https://img.test/t1.jpg', 'https://img.test/t2.jpg', 'https://img.test/t3.jpg'],
        // A JSON catalog's places are its items, counted from 1.
        places: {
          'https://img.test/t2.jpg': 'item 1',
          'https://img.test/t1.jpg': 'item 2',
          'https://img.test/t3.jpg': 'item 4',
        },
        identity: { sku: 'tote' },
      },
      {
        key: 'cap',
        name: 'cap',
        urls: ['https://img.test/c.jpg'],
        places: { 'https://img.test/c.jpg': 'item 3' },
        identity: { sku: 'cap' },
      },
    ]);
  });

  it('refuses invalid JSON, naming the file', () => {
    let error: unknown;
    try {
      parseCatalog('[{"product": "tote", "url": ', 'shop/list.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as Error).message).toMatch(/^shop\/list\.json: not valid JSON \(.+\)$/);
  });

  it('refuses the wrong shape, saying what was expected and where', () => {
    expect(() => parseCatalog('{"products": []}', 'list.json')).toThrow(
      /^list\.json: expected a list of \{"product", "url", "position"\?\} objects; at the top: /,
    );
    expect(() =>
      parseCatalog('[{"product": "tote", "url": "https://img.test/t.jpg"}, {"product": "cap"}]', 'list.json'),
    ).toThrow(/^list\.json: expected a list .* at 1\.url: /);
    expect(() => parseCatalog('[{"product": "  ", "url": "https://img.test/t.jpg"}]', 'list.json')).toThrow(
      /at 0\.product: /,
    );
    expect(() => parseCatalog('[]', 'list.json')).toThrow('list.json: no products in it');
  });
});

describe('readCatalog and isCatalogFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'adbatch-catalog-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file from disk, the same as parseCatalog', async () => {
    const file = join(dir, 'products_export_1.csv');
    await writeFile(file, SHOPIFY_EXPORT);
    expect(await readCatalog(file)).toEqual({ products: parseCatalog(SHOPIFY_EXPORT, file), warnings: [] });
  });

  it('refuses a missing file with a CatalogError naming it', async () => {
    const file = join(dir, 'nowhere.csv');
    await expect(readCatalog(file)).rejects.toThrow(CatalogError);
    await expect(readCatalog(file)).rejects.toThrow(
      `${file} does not exist: it was moved, renamed or deleted`,
    );
  });

  it('refuses a file larger than any catalog before reading a byte of it, naming its size', async () => {
    const file = join(dir, 'huge.csv');
    await writeFile(file, 'product,url\n');
    // Sparse: its size is said without a gigabyte written.
    await truncate(file, 5 * 1024 * 1024 * 1024);
    await expect(readCatalog(file)).rejects.toThrow(
      `${file}: 5,120 MB, more than a catalog of photos holds (the limit is 256 MB): split it`,
    );
    // At the limit it is read, and refused for what it holds: zero bytes, no text, seen in its first
    // 64 KB (no parser walks 256 MB of zeros: a CSV parser took 15 to 45 s on a loaded machine).
    const atLimit = join(dir, 'at-limit.json');
    await writeFile(atLimit, '[');
    await truncate(atLimit, MAX_CATALOG_BYTES);
    await expect(readCatalog(atLimit)).rejects.toThrow(
      `${atLimit} holds no text (its bytes are another program’s): choose the file`,
    );
  });

  it('knows catalogs by their extension', () => {
    expect(['a.csv', 'b.TSV', 'c.Json'].map(isCatalogFile)).toEqual([true, true, true]);
    expect(['a.jpg', 'csv', 'b.csv.png', 'c.xlsx'].map(isCatalogFile)).toEqual([false, false, false, false]);
  });
});
