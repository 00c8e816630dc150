import { isShopifyHandle } from '../../shared/shopify-handle.ts';
import type { CsvCell } from '../util/csv.ts';
import { csvText } from '../util/csv.ts';
import type { ExportItem } from './export-item.ts';

// The file Shopify's product import takes to add an export's images to their products: `Handle`, `Title`,
// `Image Src`, `Image Position`, `Image Alt Text`, one row per image, a product's images in the export's
// order (Shopify's "Using CSV files to import and export products": a row per image, the rows of a product
// sharing its handle; updating products needs `Handle` and `Title`, so the title is on a product's first
// row). Shopify fetches each `Image Src` from the web while it imports: only a public https address works,
// so the files are uploaded to the photo storage when one is set up (shopify-upload.ts), and without one
// the file names where each file is in the export folder and the export says how to get addresses.

export const SHOPIFY_IMPORT_FILE = 'shopify-import.csv';
/** The built-in Shopify recipe: its files are the ones the import file lists (a guess, as for videos). */
export const SHOPIFY_RECIPE_ID = 'shopify';

const HEADER = ['Handle', 'Title', 'Image Src', 'Image Position', 'Image Alt Text'];

/** What Shopify knows a product by. */
export interface ShopifyProduct {
  handle: string;
  title: string;
  alt: string;
}

/**
 * The product's identity as Shopify's import takes it: its handle and title (core/products/identity.ts:
 * the sheet's, else made from its name), and its alt text, else, a guess, its title for every image.
 */
export function shopifyProductOf(item: ExportItem): ShopifyProduct {
  return { handle: item.handle, title: item.title, alt: item.alt || item.title };
}

export interface ShopifyImage {
  item: ExportItem;
  /** The public address, or where the file is in the export folder when there is none. */
  src: string;
}

export interface ShopifyImportSheet {
  text: string;
  rows: number;
  products: number;
  /** Products left out, in words: Shopify needs a handle. */
  skipped: string[];
}

/**
 * The import file for these images, in order. Without a byte-order mark whatever the preference (a
 * guess): it is read by Shopify's importer, not by a person in Excel, and a mark before `Handle` is a risk
 * Shopify does not document.
 */
export function shopifyImportCsv(images: readonly ShopifyImage[]): ShopifyImportSheet {
  // A product's rows one under the other, as Shopify reads a product, even when two batches of one
  // handle are exported together (its first batch's images first).
  const byHandle = new Map<string, CsvCell[][]>();
  const skipped = new Set<string>();
  for (const { item, src } of images) {
    const product = shopifyProductOf(item);
    if (product.handle === '') {
      skipped.add(`${item.product} has no handle Shopify can take (its name has no letter or digit)`);
      continue;
    }
    // A typed handle Shopify would not take names no product there: left out with the reason, not sent.
    if (!isShopifyHandle(product.handle)) {
      skipped.add(
        `${item.product}'s handle “${product.handle}” is not one Shopify takes (lower-case letters and digits, dashes between words): mend it in the product sheet`,
      );
      continue;
    }
    let rows = byHandle.get(product.handle);
    if (!rows) {
      rows = [];
      byHandle.set(product.handle, rows);
    }
    const position = rows.length + 1;
    rows.push([product.handle, position === 1 ? product.title : null, src, position, product.alt]);
  }
  const rows = [...byHandle.values()].flat();
  return {
    text: csvText(HEADER, rows, { bom: false }),
    rows: rows.length,
    products: byHandle.size,
    skipped: [...skipped],
  };
}
