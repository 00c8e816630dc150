import { readFile, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { shortUpcSkuWords, unnamableSkuWords } from '../../shared/amazon-identifier.ts';
import type { ProductSheetView } from '../../shared/models.ts';
import { unusableHandleWords } from '../../shared/shopify-handle.ts';
import {
  decodeSpreadsheet,
  guessedEncodingWarning,
  NotSpreadsheetTextError,
  type SpreadsheetText,
  sheetTooBigWords,
} from '../../shared/spreadsheet-text.ts';
import { IDENTITY_FIELDS } from '../../shared/vocabulary.ts';
import { IDENTITY_FIELD_WORDS } from '../../shared/words.ts';
import { hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';

// `adbatch products <batch>`: the batch's product sheet (issue 29), what each product is called where it is
// sold. `--csv` prints it as CSV (or writes it with `--out`) to edit in a spreadsheet; `--from FILE` reads
// such a file back, rows matched by product id or current name, refusing a row that names no product;
// `--pattern` reads the fields from the products' folder names (`{sku}_{title}`).

interface ProductsOptions {
  dataDir: string;
  csv?: boolean;
  out?: string;
  from?: string;
  pattern?: string;
  bom?: boolean;
}

/** The sheet in lines: a product's name, then each field export names use ("—" where it has none). */
function sheetLines(view: ProductSheetView): string {
  const lines = view.rows.map((row) => {
    const fields = IDENTITY_FIELDS.filter((field) => field !== 'alt').map(
      (field) => `${IDENTITY_FIELD_WORDS[field]} ${row.used[field] || '—'}`,
    );
    return `${row.id}  ${row.name}\n    ${fields.join(', ')}`;
  });
  return `${view.batchName}: ${view.rows.length} products\n${lines.join('\n')}\n`;
}

/**
 * The SKUs an Amazon export would refuse or match to no listing (a UPC's zero dropped) and the handles
 * Shopify would not take, said as they are read or shown (the app's sheet says the same).
 */
function noteUnnamable(view: Pick<ProductSheetView, 'rows'>): void {
  const words = [unnamableSkuWords(view.rows), shortUpcSkuWords(view.rows), unusableHandleWords(view.rows)];
  for (const said of words) {
    if (said) process.stderr.write(`note: ${said}\n`);
  }
}

/** The file's text; a file that holds none (a workbook, an image) is refused, named, in words. */
function decodedOrSaid(bytes: Uint8Array, file: string): SpreadsheetText {
  try {
    return decodeSpreadsheet(bytes);
  } catch (error) {
    if (error instanceof NotSpreadsheetTextError) throw new Error(`${file} ${error.message}`);
    throw error;
  }
}

export function registerProductsCommand(program: Command): void {
  program
    .command('products')
    .description("A batch's product sheet: each product's SKU, handle, title, brand and alt text.")
    .argument('<batch>', 'a batch id (b_…)')
    .option('--csv', 'print the sheet as CSV (Product id, Name, SKU, Handle, Title, Brand, Alt text)')
    .option('--out <file>', 'with --csv: write the CSV to this file instead')
    .option('--bom', "with --csv: start with UTF-8's byte-order mark, which Excel needs (the default)")
    .option('--no-bom', 'with --csv: without the byte-order mark (for scripts)')
    .option('--from <file>', 'read the sheet back from a CSV: rows matched by product id or current name')
    .option('--pattern <pattern>', "read fields from the products' folder names: {sku}_{title}, or a regex")
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .action(async (batchId: string, options: ProductsOptions) => {
      if (options.out !== undefined && !options.csv) throw new Error('--out goes with --csv');
      if (!hasQueue(options.dataDir)) throw new Error(`nothing has run with ${options.dataDir} yet`);
      const cli = openCliCore({
        dataDir: options.dataDir,
        holderName: 'adbatch products',
        leaseMode: 'none',
      });
      try {
        if (options.from !== undefined) {
          const file = resolve(options.from);
          // A file it cannot read is said in words by the program's one catch (fs-refusal.ts); one far too
          // big by its size, before it is read.
          const { size } = await stat(file);
          const tooBig = sheetTooBigWords(size);
          if (tooBig) throw new Error(`${file} ${tooBig}`);
          const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
            // A folder's EISDIR comes from the read, which names no path.
            error.path ??= file;
            throw error;
          });
          // Saved again by Excel as plain "CSV", the sheet is in the computer's code page, not UTF-8.
          const read = decodedOrSaid(bytes, file);
          const view = await cli.call('products:importCsv', { batchId, csv: read.text });
          process.stdout.write(
            `${view.changed} of ${view.rows.length} products of ${view.batchName} read from ${file}.\n`,
          );
          const guessed = guessedEncodingWarning(read);
          if (guessed) process.stderr.write(`note: ${file}: ${guessed}\n`);
          noteUnnamable(view);
        }
        if (options.pattern !== undefined) {
          const view = await cli.call('products:fromNames', { batchId, pattern: options.pattern });
          const read = view.rows.length - view.unmatched.length;
          process.stdout.write(`${read} of ${view.rows.length} products read from their names.\n`);
          if (view.unmatched.length > 0) {
            process.stderr.write(`note: the pattern does not match ${view.unmatched.join(', ')}\n`);
          }
          noteUnnamable(view);
        }
        if (options.csv) {
          const { csv } = await cli.call('products:exportCsv', {
            batchId,
            ...(options.bom !== undefined ? { bom: options.bom } : {}),
          });
          if (options.out !== undefined) {
            await writeFile(resolve(options.out), csv);
            process.stdout.write(`Wrote ${resolve(options.out)}.\n`);
          } else process.stdout.write(csv);
        } else if (options.from === undefined && options.pattern === undefined) {
          const view = await cli.call('products:sheet', { batchId });
          process.stdout.write(sheetLines(view));
          noteUnnamable(view);
        }
      } finally {
        await cli.core.stop();
      }
    });
}
