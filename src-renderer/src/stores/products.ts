import { create } from 'zustand';
import type { ProductSheetView } from '../../../src-main/shared/models.ts';
import {
  decodeSpreadsheet,
  guessedEncodingWarning,
  type SpreadsheetText,
  sheetTooBigWords,
} from '../../../src-main/shared/spreadsheet-text.ts';
import { IDENTITY_FIELDS, type IdentityField } from '../../../src-main/shared/vocabulary.ts';
import { IDENTITY_FIELD_WORDS } from '../../../src-main/shared/words.ts';
import { api, messageOf } from '../api/index.ts';

// A batch's product sheet (issue 29): what each product is called where it is sold. A typed cell and a
// pasted block are each one `products:update`, so a paste lands whole or not at all; the sheet shown is
// always the one main answered.

/** A block pasted from a spreadsheet: rows by line, cells by tab; a last empty line (Excel's) is not a row. */
export function pastedCells(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

interface ProductsState {
  sheet: ProductSheetView | null;
  error: string | null;
  /** What the last edit, paste, pattern or import did, in words. */
  said: string | null;
  load(batchId: string): Promise<void>;
  set(productId: string, field: IdentityField, value: string): Promise<void>;
  /** Pastes a block from the row and column it lands on, down and to the right. */
  paste(rowIndex: number, field: IdentityField, text: string): Promise<void>;
  fromNames(pattern: string): Promise<void>;
  /**
   * Reads a chosen file back into the sheet, saying how its bytes were read when they were not UTF-8 (a
   * workbook, an image or a file far too big is refused, in words).
   */
  importFile(file: File): Promise<void>;
  exportCsv(): Promise<{ csv: string; fileName: string } | null>;
}

export const useProducts = create<ProductsState>((set, get) => {
  /** Runs a change, keeping the sheet it answers, or the error in words. */
  const change = async <View extends ProductSheetView>(
    run: () => Promise<View>,
    said: (view: View) => string | null,
  ) => {
    try {
      const view = await run();
      set({ sheet: view, error: null, said: said(view) });
    } catch (error) {
      set({ error: messageOf(error), said: null });
    }
  };
  const batchId = () => get().sheet?.batchId ?? '';
  return {
    sheet: null,
    error: null,
    said: null,
    async load(id) {
      set({ sheet: null, error: null, said: null });
      await change(
        () => api.call('products:sheet', { batchId: id }),
        () => null,
      );
    },
    async set(productId, field, value) {
      const row = get().sheet?.rows.find((one) => one.id === productId);
      if (!row || row.identity[field] === value.trim()) return;
      // A cell saves as it loses the keyboard: said under the tools, as a paste or an import is.
      const what = `${IDENTITY_FIELD_WORDS[field]} of ${row.name}`;
      set({ said: `Saving the ${what}…` });
      await change(
        () => api.call('products:update', { batchId: batchId(), changes: [{ productId, field, value }] }),
        () => `Saved the ${what}.`,
      );
    },
    async paste(rowIndex, field, text) {
      const rows = get().sheet?.rows ?? [];
      const cells = pastedCells(text);
      const firstColumn = IDENTITY_FIELDS.indexOf(field);
      const changes = cells.flatMap((line, down) =>
        line.flatMap((value, across) => {
          const row = rows[rowIndex + down];
          const column = IDENTITY_FIELDS[firstColumn + across];
          return row && column ? [{ productId: row.id, field: column, value }] : [];
        }),
      );
      const left = cells.length - Math.max(0, Math.min(cells.length, rows.length - rowIndex));
      if (changes.length === 0) return;
      await change(
        () => api.call('products:update', { batchId: batchId(), changes }),
        () =>
          `Pasted ${cells.length - left} ${cells.length - left === 1 ? 'row' : 'rows'}${left > 0 ? `; ${left} beyond the last product left out` : ''}.`,
      );
    },
    async fromNames(pattern) {
      await change(
        () => api.call('products:fromNames', { batchId: batchId(), pattern }),
        ({ rows, unmatched }) =>
          `Read from ${rows.length - unmatched.length} of ${rows.length} names${unmatched.length > 0 ? `; not matched: ${unmatched.join(', ')}` : ''}.`,
      );
    },
    async importFile(file) {
      const refuse = (why: string) => set({ error: `${file.name} ${why}`, said: null });
      // Its size before a byte is read: a file far bigger than any sheet is not one.
      const tooBig = sheetTooBigWords(file.size);
      if (tooBig) return refuse(tooBig);
      // Bytes, not text: saved again by Excel as plain "CSV", the sheet is not UTF-8.
      let read: SpreadsheetText;
      try {
        read = decodeSpreadsheet(new Uint8Array(await file.arrayBuffer()));
      } catch (error) {
        return refuse(messageOf(error));
      }
      const guessed = guessedEncodingWarning(read);
      await change(
        () => api.call('products:importCsv', { batchId: batchId(), csv: read.text }),
        ({ rows, changed }) =>
          `Read ${changed} of ${rows.length} products from the file.${guessed ? ` The file is ${guessed}.` : ''}`,
      );
    },
    async exportCsv() {
      try {
        return await api.call('products:exportCsv', { batchId: batchId() });
      } catch (error) {
        set({ error: messageOf(error) });
        return null;
      }
    },
  };
});
