import type { Command } from 'commander';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import { follow } from '../follow.ts';
import { openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';
import { sessionKeysFromEnv } from './session-key.ts';

// `adbatch redownload <job|batch>`: fetches results the service was paid for but that are not on disk (a
// download that kept failing), without a new POST and without credits, then follows the batch to its end
// like `resume`. Result addresses need no key; ADBATCH_API_KEY is used when given, for the rest of the batch.

export function registerRedownloadCommand(program: Command): void {
  program
    .command('redownload')
    .description('Download again the results a job (or every job of a batch) owes: no new job, no credits.')
    .argument('<job|batch>', 'a job id (j_…) or a batch id (b_…)')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .action(async (id: string, options: { dataDir: string }) => {
      const cli = openCliCore({
        dataDir: options.dataDir,
        holderName: 'adbatch redownload',
        leaseMode: 'require',
        sessionKeys: sessionKeysFromEnv(),
        timeScale: DEFAULT_SANDBOX_TIME_SCALE,
      });
      try {
        await cli.core.start();
        process.exitCode = await follow(cli, async () => {
          const batch = id.startsWith('b_')
            ? await cli.call('batches:redownload', { id })
            : await cli.call('jobs:redownload', { id });
          process.stdout.write(`Downloading again what ${batch.name} owes (no new job, no credits).\n`);
          return [batch.id];
        });
      } finally {
        await cli.core.stop();
      }
    });
}
