import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CatalogError, parseCatalog } from '../../../src-main/core/ingest/catalog-file.ts';
import { csvText, inertText } from '../../../src-main/core/util/csv.ts';
import { check, hostileText } from '../../support/fuzz.ts';

// Issue 28 point 8: the catalog parsers (core/ingest/catalog-file.ts) driven by generated files. Any text
// under any catalog name is read, or refused with a CatalogError that names the file; a Shopify export and
// a plain product,url list written by a real CSV writer (ours, as Adbatch's own sheets are written) read
// back as the products they list: each product once, its photos in position order, duplicates dropped.

const name = fc.constantFrom('catalog.csv', 'catalog.tsv', 'catalog.json', 'CATALOG.CSV');

/** Text that looks like a catalog more often than noise would: rows of hostile cells, quotes, separators. */
const catalogText = fc.oneof(
  hostileText(200),
  fc
    .array(fc.array(hostileText(20), { maxLength: 5 }), { maxLength: 8 })
    .map((rows) => rows.map((cells) => cells.join(',')).join('\n')),
  fc
    .array(fc.record({ product: hostileText(10), url: hostileText(10), position: fc.anything() }), {
      maxLength: 4,
    })
    .map((entries) => JSON.stringify(entries)),
);

/** A product's own text: trimmed and not empty, as the parser keeps it. */
const label = hostileText(24).filter((text) => text.trim() === text && text !== '');
const handle = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const url = fc.stringMatching(/^[a-f0-9]{1,8}$/).map((id) => `https://cdn.example.com/${id}.jpg`);

interface Listed {
  key: string;
  title: string;
  photos: Array<{ url: string; position: number }>;
}

const listed: fc.Arbitrary<Listed[]> = fc.uniqueArray(
  fc.record({
    key: handle,
    title: label,
    photos: fc.array(fc.record({ url, position: fc.integer({ min: 1, max: 9 }) }), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  { selector: (product) => product.key, minLength: 1, maxLength: 6 },
);

/** The photos the parser should give: by position, then in row order, each address once. */
function expectedUrls(photos: Listed['photos']): string[] {
  const ordered = photos.map((photo, row) => ({ ...photo, row }));
  ordered.sort((a, b) => a.position - b.position || a.row - b.row);
  return [...new Set(ordered.map((photo) => photo.url))];
}

/**
 * Where each product's addresses first are, as a spreadsheet numbers rows: the header is row 1 and the
 * products' photos follow it, one row each, in order.
 */
function expectedPlaces(products: ReadonlyArray<Pick<Listed, 'photos'>>): Array<Record<string, string>> {
  let row = 2;
  return products.map(({ photos }) => {
    const places: Record<string, string> = {};
    for (const photo of photos) {
      places[photo.url] ??= `row ${row}`;
      row++;
    }
    return places;
  });
}

describe('catalogs, property-tested', () => {
  it('reads any file or refuses it with a CatalogError naming it', () => {
    check(
      fc.property(catalogText, name, (text, file) => {
        try {
          const products = parseCatalog(text, file);
          expect(products.length).toBeGreaterThan(0);
          for (const product of products) expect(product.key).not.toBe('');
        } catch (error) {
          expect(error).toBeInstanceOf(CatalogError);
          expect((error as Error).message.startsWith(`${file}:`)).toBe(true);
        }
      }),
    );
  });

  it('reads a Shopify export back as the products it lists, titles as written', () => {
    check(
      fc.property(listed, fc.boolean(), (products, bom) => {
        const rows = products.flatMap((product) =>
          product.photos.map((photo, index) => [
            product.key,
            index === 0 ? product.title : '',
            photo.url,
            photo.position,
          ]),
        );
        const text = csvText(['Handle', 'Title', 'Image Src', 'Image Position'], rows, { bom });
        const read = parseCatalog(text, 'products_export.csv');
        const places = expectedPlaces(products);
        expect(read).toEqual(
          products.map((product, index) => ({
            key: product.key,
            // What the file holds: a title that reads as a formula has the writer's quote before it.
            name: inertText(product.title),
            urls: expectedUrls(product.photos),
            places: places[index],
            // Its identity (issue 29): the handle, and the title where there is one.
            identity: { handle: product.key, ...(product.title ? { title: inertText(product.title) } : {}) },
          })),
        );
      }),
    );
  });

  it('reads a plain product,url list back, whatever the product names', () => {
    check(
      fc.property(listed, (products) => {
        const named = products.map((product) => ({ ...product, key: product.title }));
        const unique = [...new Map(named.map((product) => [inertText(product.key), product])).values()];
        const rows = unique.flatMap((product) =>
          product.photos.map((photo) => [product.key, photo.url, photo.position]),
        );
        const read = parseCatalog(csvText(['product', 'url', 'position'], rows, { bom: false }), 'list.csv');
        const places = expectedPlaces(unique);
        expect(read).toEqual(
          unique.map((product, index) => ({
            key: inertText(product.key),
            name: inertText(product.key),
            urls: expectedUrls(product.photos),
            places: places[index],
            // A plain list's product column is its SKU (issue 29's guess).
            identity: { sku: inertText(product.key) },
          })),
        );
      }),
    );
  });
});
