import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { shortUpcSkuWords, unnamableSkuWords } from '../../../src-main/shared/amazon-identifier.ts';
import type { ProductSheetRow } from '../../../src-main/shared/models.ts';
import { unusableHandleWords } from '../../../src-main/shared/shopify-handle.ts';
import { IDENTITY_FIELDS, type IdentityField } from '../../../src-main/shared/vocabulary.ts';
import { IDENTITY_FIELD_WORDS } from '../../../src-main/shared/words.ts';
import { ModalSheet } from '../components/ModalSheet.tsx';
import { Notice } from '../components/Notice.tsx';
import { useKeptTyping } from '../components/use-kept-typing.ts';
import { useProducts } from '../stores/products.ts';

// The product sheet (issue 29): a batch's products, one row each, with the SKU, handle, title, brand and
// alt text export names and manifests use. A cell is typed into (kept as it loses the keyboard or on
// Enter); a column copied from a spreadsheet is pasted into the cell it starts at and fills the rows below
// (tabs move right). An empty cell shows, greyed, what names use instead (a handle made from the title);
// a SKU has no guess. Read from names by a pattern, or from a CSV; exported as CSV to edit elsewhere.

function Cell({ row, rowIndex, field }: { row: ProductSheetRow; rowIndex: number; field: IdentityField }) {
  const { text: value, setText: setValue, sent } = useKeptTyping(row.identity[field]);
  const { paste } = useProducts.getState();
  /** Saves what was typed: the answer then replaces the cell, unless more was typed since. */
  const save = () => {
    sent(value);
    return useProducts.getState().set(row.id, field, value);
  };
  const label = `${IDENTITY_FIELD_WORDS[field]} of ${row.name}`;
  return (
    <td className={field === 'sku' && !row.used.sku ? 'product-missing' : undefined}>
      <input
        aria-label={label}
        value={value}
        placeholder={row.used[field] || (field === 'sku' ? 'none' : '')}
        onChange={(event) => setValue(event.target.value)}
        onBlur={() => void save()}
        onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
          if (event.key === 'Enter') void save();
        }}
        onPaste={(event: ClipboardEvent<HTMLInputElement>) => {
          const text = event.clipboardData.getData('text/plain');
          // A single value is typed into the cell as any paste is; a block (a column, a row) fills the sheet.
          if (!/[\t\r\n]/.test(text.replace(/\r?\n$/, ''))) return;
          event.preventDefault();
          void paste(rowIndex, field, text);
        }}
      />
    </td>
  );
}

function download(csv: string, fileName: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

export function ProductSheet({ batchId, onClose }: { batchId: string; onClose: () => void }) {
  const { sheet, error, said } = useProducts();
  const [pattern, setPattern] = useState('{sku}_{title}');
  const file = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void useProducts.getState().load(batchId);
  }, [batchId]);
  const lacking = sheet?.rows.filter((row) => !row.used.sku).length ?? 0;
  // A SKU Amazon's file names cannot hold refuses an Amazon export: said here, where it is mended.
  const unnamable = sheet ? unnamableSkuWords(sheet.rows) : null;
  // And one whose UPC lost its leading zero in a spreadsheet: Amazon would match it to no listing.
  const shortUpcs = sheet ? shortUpcSkuWords(sheet.rows) : null;
  const badHandles = sheet ? unusableHandleWords(sheet.rows) : null;
  return (
    <ModalSheet labelledBy="product-sheet-title" className="product-sheet" onClose={onClose}>
      <div className="sheet-head">
        <h2 id="product-sheet-title">Products{sheet ? ` of ${sheet.batchName}` : ''}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted small">
        What each product is called where it is sold: export names (<code>{'{sku}'}.MAIN.jpg</code> for
        Amazon, the SKU without its dashes and spaces) and manifests use it. Paste a column from a spreadsheet
        into its first cell; grey is what names use where a cell is empty.
      </p>
      <div className="product-tools">
        <label>
          Read from folder names
          <input
            aria-label="Name pattern"
            value={pattern}
            onChange={(event) => setPattern(event.target.value)}
          />
        </label>
        <button type="button" onClick={() => void useProducts.getState().fromNames(pattern)}>
          Read
        </button>
        <button type="button" onClick={() => file.current?.click()}>
          Import CSV…
        </button>
        <input
          ref={file}
          type="file"
          accept=".csv,.tsv,text/csv"
          hidden
          aria-label="CSV file to import"
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            event.target.value = '';
            if (!chosen) return;
            void useProducts.getState().importFile(chosen);
          }}
        />
        <button
          type="button"
          onClick={() =>
            void useProducts
              .getState()
              .exportCsv()
              .then((csv) => csv && download(csv.csv, csv.fileName))
          }
        >
          Export CSV
        </button>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      {said && (
        <p className="small" role="status">
          {said}
        </p>
      )}
      {sheet && lacking > 0 && (
        <p className="small product-lacking" data-testid="products-lacking">
          {lacking} of {sheet.rows.length} products have no SKU: a recipe named by {'{sku}'} (Amazon) will not
          export them.
        </p>
      )}
      {unnamable && (
        <p className="small product-lacking" data-testid="products-unnamable">
          {unnamable}
        </p>
      )}
      {shortUpcs && (
        <p className="small product-lacking" data-testid="products-short-upc">
          {shortUpcs}
        </p>
      )}
      {badHandles && (
        <p className="small product-lacking" data-testid="products-bad-handles">
          {badHandles}
        </p>
      )}
      {sheet && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keys.
        <section className="product-table" tabIndex={0} aria-label="Products and their names">
          <table>
            <thead>
              <tr>
                <th scope="col">Product</th>
                {IDENTITY_FIELDS.map((field) => (
                  <th key={field} scope="col">
                    {IDENTITY_FIELD_WORDS[field]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sheet.rows.map((row, rowIndex) => (
                <tr key={row.id}>
                  <th scope="row">{row.name}</th>
                  {IDENTITY_FIELDS.map((field) => (
                    <Cell key={field} row={row} rowIndex={rowIndex} field={field} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </ModalSheet>
  );
}

export function ProductSheetButton({ batchId }: { batchId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Products…
      </button>
      {open && <ProductSheet batchId={batchId} onClose={() => setOpen(false)} />}
    </>
  );
}
