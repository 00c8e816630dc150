import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { ReviewItemView, ReviewView } from '../../shared/models.ts';
import { REVIEW_LABEL_WORDS } from '../../shared/words.ts';
import { type CliCore, hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';

// `adbatch review <batch>`: where the review of a batch stands (how many results reviewed, picked,
// rejected) and the picks, read beside whatever drives the queue. `--json` prints the handler's own view.
// `adbatch review --product <folder|sku>`: the same for one product across every batch that shot it.

function stars(count: number): string {
  return count > 0 ? ` ${'★'.repeat(count)}${'☆'.repeat(5 - count)}` : '';
}

function pickLine(item: ReviewItemView): string {
  const label = item.label ? ` (${REVIEW_LABEL_WORDS[item.label]})` : '';
  return `  ${item.productName}  ${item.kind} ${item.index}${stars(item.stars)}${label}  ${item.file}`;
}

/** "3 of 12 reviewed, 2 picked, 1 rejected". */
export function reviewStanding(review: ReviewView): string {
  const { counts } = review;
  return `${counts.reviewed} of ${counts.total} reviewed, ${counts.picked} picked, ${counts.rejected} rejected`;
}

/**
 * What the user typed, as core reads it: a folder that exists here (or any text with a path separator) is
 * made absolute against the current folder, as ingest made it when it was dropped; anything else is a SKU
 * or a catalog handle.
 */
function productWords(words: string): string {
  return existsSync(words) || words.includes(sep) || words.includes('/') ? resolve(words) : words;
}

async function batchReview(cli: CliCore, batchId: string, json: boolean): Promise<void> {
  const batch = await cli.call('batches:get', { id: batchId });
  const review = await cli.call('review:get', { batchId });
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...review, resultsFolder: batch.resultsFolder }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`${batch.name} (${batch.id}): ${reviewStanding(review)}\n`);
  const picks = review.items.filter((item) => item.flag === 'picked');
  if (picks.length > 0) {
    process.stdout.write(`Picked, in ${batch.resultsFolder}:\n${picks.map(pickLine).join('\n')}\n`);
  } else if (review.counts.total > 0) {
    process.stdout.write(
      `Nothing picked yet: pick in Review in the app, or with adbatch pick <file...> (the results are in ${batch.resultsFolder}).\n`,
    );
  }
}

async function productReview(cli: CliCore, words: string, json: boolean): Promise<void> {
  const review = await cli.call('review:get', { product: productWords(words) });
  const product = review.product!;
  const resultsFolders: Record<string, string> = {};
  for (const batch of product.batches) {
    resultsFolders[batch.id] = (await cli.call('batches:get', { id: batch.id })).resultsFolder;
  }
  if (json) {
    process.stdout.write(`${JSON.stringify({ ...review, resultsFolders }, null, 2)}\n`);
    return;
  }
  const batches = product.batches.length;
  process.stdout.write(
    `${product.name} (${product.label}), in ${batches} batch${batches === 1 ? '' : 'es'}: ${reviewStanding(review)}\n`,
  );
  // Newest batch first, as the view lists them; each batch's picks under its own results folder.
  for (const batch of product.batches) {
    const picks = review.items.filter((item) => item.flag === 'picked' && item.batch?.id === batch.id);
    if (picks.length === 0) continue;
    process.stdout.write(
      `Picked in ${batch.name} (${batch.id}), in ${resultsFolders[batch.id]}:\n${picks.map(pickLine).join('\n')}\n`,
    );
  }
}

export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description(
      "Show where a batch's review stands (results reviewed, picked and rejected, and the picks), or one product's across every batch that shot it.",
    )
    .argument('[batch]', 'a batch id')
    .option(
      '--product <folder|sku>',
      'one product in every batch that shot it: its folder, or its SKU or catalog handle',
    )
    .option('--json', 'print the review as JSON: every result with its decision, and the counts')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .action(
      async (batchId: string | undefined, options: { product?: string; json?: boolean; dataDir: string }) => {
        if ((batchId === undefined) === (options.product === undefined)) {
          throw new Error('name a batch, or a product with --product <folder|sku>, not both');
        }
        if (!hasQueue(options.dataDir)) throw new Error(`nothing has run with ${options.dataDir} yet`);
        const cli = openCliCore({ dataDir: options.dataDir, holderName: 'adbatch', leaseMode: 'none' });
        try {
          if (options.product !== undefined) await productReview(cli, options.product, options.json === true);
          else await batchReview(cli, batchId!, options.json === true);
        } finally {
          await cli.core.stop();
        }
      },
    );
}
