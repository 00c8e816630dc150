import { z } from 'zod';
import type { ProductSheetView } from '../models.ts';
import { MAX_SHEET_BYTES } from '../spreadsheet-text.ts';
import { IDENTITY_FIELDS } from '../vocabulary.ts';
import { channel } from './channel.ts';
import { batchId } from './queue.ts';

// What each product is called where it is sold: its SKU, handle, title, brand and alt text, in a batch's
// product sheet (core/products/). Export names and manifests use it.

const productId = z.string().min(1).max(200);
/**
 * The most characters a product's name or identity field holds, typed, pasted or read from a catalog: more
 * than any channel takes (Shopify's title 255, its alt text 512).
 */
export const MAX_FIELD_CHARS = 2_000;
/** A field's value as typed or pasted: one line (line breaks become spaces as it is stored). */
const fieldValue = z.string().max(MAX_FIELD_CHARS);

export const productsChannels = {
  /** A batch's products with their identities, and what export names use where a field is empty. */
  'products:sheet': channel<ProductSheetView>()(z.object({ batchId }).strict()),
  /** Sets fields of products: one cell typed, or a column pasted into consecutive rows, in one change. */
  'products:update': channel<ProductSheetView>()(
    z
      .object({
        batchId,
        changes: z
          .array(z.object({ productId, field: z.enum(IDENTITY_FIELDS), value: fieldValue }).strict())
          .min(1)
          .max(100_000),
      })
      .strict(),
  ),
  /** Reads each product's fields from its name by a pattern (`{sku}_{title}`, or a regex with named groups). */
  'products:fromNames': channel<ProductSheetView & { unmatched: string[] }>()(
    z.object({ batchId, pattern: z.string().min(1).max(500) }).strict(),
  ),
  /**
   * The sheet as CSV (`Product id`, `Name`, then a column per field), to edit in a spreadsheet; `bom`: with
   * UTF-8's byte-order mark (for Excel), absent the preference's.
   */
  'products:exportCsv': channel<{ csv: string; fileName: string }>()(
    z.object({ batchId, bom: z.boolean().optional() }).strict(),
  ),
  /**
   * Reads a sheet back from CSV: rows matched by product id or current name; a row that names no product
   * refuses the whole file, in words, before anything changes.
   */
  'products:importCsv': channel<ProductSheetView & { changed: number }>()(
    z.object({ batchId, csv: z.string().min(1).max(MAX_SHEET_BYTES) }).strict(),
  ),
};
