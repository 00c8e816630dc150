import type { Command } from 'commander';
import type { ReviewItemView } from '../../shared/models.ts';
import { openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';

// `adbatch review <batch>`: where the review of a batch stands (how many results reviewed, picked,
// rejected) and the picks, read beside whatever drives the queue. `--json` prints the handler's own view.

function stars(count: number): string {
  return count > 0 ? ` ${'★'.repeat(count)}${'☆'.repeat(5 - count)}` : '';
}

function pickLine(item: ReviewItemView): string {
  return `  ${item.productName}  ${item.kind} ${item.index}${stars(item.stars)}  ${item.file}`;
}

export function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description("Show where a batch's review stands: results reviewed, picked and rejected, and the picks.")
    .argument('<batch>', 'a batch id')
    .option('--json', 'print the review as JSON: every result with its decision, and the counts')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .action(async (batchId: string, options: { json?: boolean; dataDir: string }) => {
      const cli = openCliCore({ dataDir: options.dataDir, holderName: 'adbatch', leaseMode: 'none' });
      try {
        const batch = await cli.call('batches:get', { id: batchId });
        const review = await cli.call('review:get', { batchId });
        if (options.json) {
          process.stdout.write(
            `${JSON.stringify({ ...review, resultsFolder: batch.resultsFolder }, null, 2)}\n`,
          );
          return;
        }
        const { counts } = review;
        process.stdout.write(
          `${batch.name} (${batch.id}): ${counts.reviewed} of ${counts.total} reviewed, ${counts.picked} picked, ${counts.rejected} rejected\n`,
        );
        const picks = review.items.filter((item) => item.flag === 'picked');
        if (picks.length > 0) {
          process.stdout.write(`Picked, in ${batch.resultsFolder}:\n${picks.map(pickLine).join('\n')}\n`);
        }
      } finally {
        await cli.core.stop();
      }
    });
}
