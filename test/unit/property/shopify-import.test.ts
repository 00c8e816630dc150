import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shopifyImportCsv } from '../../../src-main/core/export/shopify-import.ts';
import { handleOf } from '../../../src-main/core/products/identity.ts';
import { inertCellValue, isFormulaLike } from '../../../src-main/core/util/csv.ts';
import { exportItem } from '../../support/export-item.ts';
import { check, hostileText } from '../../support/fuzz.ts';

// Issue 28 point 8 and issue 29 point 6: Shopify's import file for generated products (any name, hence any
// handle made from it): read back by a real CSV parser, a row per image with a handle, positions 1, 2, 3…
// per handle in the export's order, a product's rows one under the other (two batches of one handle too),
// the title on a product's first row only, every cell inert, and a product without a handle left out with
// the reason.

describe("Shopify's import file, property-tested", () => {
  it('lists every image of a product with a handle, numbered per product, every cell inert', () => {
    check(
      fc.property(fc.array(fc.tuple(hostileText(30), fc.nat({ max: 3 })), { maxLength: 12 }), (images) => {
        const items = images.map(([name, copy], index) => ({
          item: exportItem({
            key: `asset:${index}`,
            file: `/library/${index}.png`,
            product: name,
            // As the product sheet gives them without a title or alt text of their own: the name.
            title: name,
            handle: handleOf(name),
          }),
          src: `https://cdn.example.com/${index}-${copy}.jpg`,
        }));
        const sheet = shopifyImportCsv(items);
        const [header, ...rows] = parse(Buffer.from(sheet.text, 'utf8')) as string[][];
        expect(header).toEqual(['Handle', 'Title', 'Image Src', 'Image Position', 'Image Alt Text']);
        // The export's order, each handle's images gathered under its first.
        const handles = [...new Set(items.map(({ item }) => item.handle).filter((handle) => handle !== ''))];
        const kept = handles.flatMap((handle) => items.filter(({ item }) => item.handle === handle));
        expect(rows.map((row) => row[2])).toEqual(kept.map(({ src }) => src));
        const seen = new Map<string, number>();
        for (const [index, row] of rows.entries()) {
          const [rowHandle, title, , position, alt] = row as [string, string, string, string, string];
          const item = kept[index]!.item;
          expect(rowHandle).toBe(item.handle);
          const expected = (seen.get(rowHandle) ?? 0) + 1;
          seen.set(rowHandle, expected);
          expect(Number(position)).toBe(expected);
          expect(inertCellValue(title)).toBe(expected === 1 ? item.title : '');
          expect(inertCellValue(alt)).toBe(item.title);
          for (const cell of row) expect(isFormulaLike(cell)).toBe(false);
        }
        expect(sheet.products).toBe(seen.size);
        expect(sheet.skipped.length > 0).toBe(kept.length < items.length);
      }),
    );
  });

  it('leaves out a typed handle Shopify would not take, with the reason, and keeps the rest', () => {
    const image = (key: string, product: string, handle: string) => ({
      item: exportItem({ key, file: `/library/${key}.png`, product, title: product, handle }),
      src: `https://cdn.example.com/${key}.jpg`,
    });
    const sheet = shopifyImportCsv([image('a', 'Hat', 'Wool Hat'), image('b', 'Tote', 'tote')]);
    const [, ...rows] = parse(Buffer.from(sheet.text, 'utf8')) as string[][];
    expect(rows.map((row) => row[0])).toEqual(['tote']);
    expect(sheet.skipped).toEqual([
      "Hat's handle “Wool Hat” is not one Shopify takes (lower-case letters and digits, dashes between words): mend it in the product sheet",
    ]);
  });
});
