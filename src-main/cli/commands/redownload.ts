import type { Command } from 'commander';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir } from '../paths.ts';
import { decideAndFollow } from './follow-one.ts';

// `adbatch redownload <job|batch>`: fetches results the service was paid for but that are not on disk (a
// download that kept failing), without a new POST and without credits, then follows the batch to its end
// like `resume`. Result addresses need no key; ADBATCH_API_KEY is used when given, for the rest of the batch,
// and --allow-host (as `resume` takes it) for the input its creates still to be sent fetch from this network.

export function registerRedownloadCommand(program: Command): void {
  program
    .command('redownload')
    .description('Download again the results a job (or every job of a batch) owes: no new job, no credits.')
    .argument('<job|batch>', 'a job id (j_…) or a batch id (b_…)')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .action(async (id: string, options: OutboundFlags & { dataDir: string }) => {
      await decideAndFollow(
        { dataDir: options.dataDir, holderName: 'adbatch redownload', allowHosts: options.allowHost },
        id,
        (cli, ofBatch) => cli.call(ofBatch ? 'batches:redownload' : 'jobs:redownload', { id }),
        (batch) => `Downloading again what ${batch.name} owes (no new job, no credits).`,
      );
    });
}
