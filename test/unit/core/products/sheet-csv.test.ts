import { describe, expect, it } from 'vitest';
import { readSheetCsv } from '../../../../src-main/core/products/sheet-csv.ts';
import type { ProductSheetRow } from '../../../../src-main/shared/models.ts';

// A sheet read back that names no product of the batch, row by row: what a designer gets who imports the
// sheet of another batch.

const identity = { sku: '', handle: '', title: '', brand: '', alt: '' };
const row = (id: string, name: string): ProductSheetRow => ({ id, name, identity, used: identity });

describe('readSheetCsv', () => {
  it("names the first five rows of another batch's sheet and counts the rest, changing nothing", () => {
    const rows = [row('p_hat', 'hat'), row('p_tote', 'tote')];
    const other = [
      'Product id,Name,SKU',
      ...Array.from({ length: 40 }, (_, index) => `p_other${index},scarf-${index},SC-${index}`),
    ].join('\n');
    expect(() => readSheetCsv(other, rows, 'Spring')).toThrow(
      'Nothing was changed: 40 rows name no product of Spring (row 2 (id p_other0, name "scarf-0"); row 3 (id p_other1, name "scarf-1"); row 4 (id p_other2, name "scarf-2"); row 5 (id p_other3, name "scarf-3"); row 6 (id p_other4, name "scarf-4") and 35 more). Match rows by the "Product id" column or the product\'s current name.',
    );
    expect(readSheetCsv('Name,SKU\nhat,HAT-1\n', rows, 'Spring')).toEqual([
      { productId: 'p_hat', fields: { sku: 'HAT-1' } },
    ]);
  });
});
