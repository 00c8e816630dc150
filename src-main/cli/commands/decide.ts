import type { Command } from 'commander';
import { refusalWords } from '../../core/app/fs-refusal.ts';
import { retryWarning } from '../../shared/words.ts';
import { EXIT } from '../exit-codes.ts';
import { type CliCore, openCliCore } from '../open-core.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir } from '../paths.ts';
import { decideAndFollow } from './follow-one.ts';

// The user's decisions, on batches (pause, cancel) and on jobs that need one (retry, abandon, recheck),
// through the same handlers as the app's buttons: core checks each one's preconditions. They change the
// queue; whatever drives it (the app, a running `adbatch run`) picks them up, and `adbatch resume`
// acts on them otherwise. `recheck` asks the service itself, so it drives the queue, as `redownload` does.

async function decide(dataDir: string, action: (cli: CliCore) => Promise<string>): Promise<void> {
  const cli = openCliCore({ dataDir, holderName: 'adbatch', leaseMode: 'none' });
  try {
    process.stdout.write(`${await action(cli)}\n`);
  } catch (error) {
    process.stderr.write(`adbatch: ${refusalWords(error)}\n`);
    process.exitCode = EXIT.error;
  } finally {
    await cli.core.stop();
  }
}

export function registerDecisionCommands(program: Command): void {
  const dataDir = ['--data-dir <dir>', 'where the queue database lives', defaultDataDir()] as const;

  program
    .command('pause')
    .description('Stop creating jobs in a batch; jobs already created are still followed and downloaded.')
    .argument('<batch>', 'a batch id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      decide(options.dataDir, async (cli) => {
        await cli.call('batches:pause', { id });
        return `Paused ${id}. adbatch resume ${id} continues it.`;
      }),
    );

  program
    .command('cancel')
    .description('Cancel what a batch has not created yet; created jobs are still followed and downloaded.')
    .argument('<batch>', 'a batch id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      decide(options.dataDir, async (cli) => {
        const before = (await cli.call('batches:get', { id })).states.cancelled ?? 0;
        const after = (await cli.call('batches:cancel', { id })).states.cancelled ?? 0;
        return `Cancelled ${id}: ${after - before} jobs will not be created.`;
      }),
    );

  program
    .command('retry')
    .description('Send a failed or outcome-unknown job again. It costs credits again.')
    .argument('<job>', 'a job id')
    .option('--yes', 'confirm that the credits may be spent again')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string; yes?: boolean }) =>
      decide(options.dataDir, async (cli) => {
        const { job } = await cli.call('jobs:get', { id });
        const warning = retryWarning(job);
        // A job that cannot be retried is refused by core, in its words, whether or not --yes was given.
        if (job.decisions.includes('retry') && !options.yes) {
          throw new Error(`${warning} Add --yes to retry it.`);
        }
        await cli.call('jobs:retry', { id });
        return `${warning}\nQueued ${id} again; adbatch resume sends it.`;
      }),
    );

  program
    .command('abandon')
    .description('Never send an outcome-unknown job again (check the service for whether it was created).')
    .argument('<job>', 'a job id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      decide(options.dataDir, async (cli) => {
        await cli.call('jobs:abandon', { id });
        return `Abandoned ${id}.`;
      }),
    );

  program
    .command('recheck')
    .description(
      'Check again, free: a job (or every job of a batch) in doubt. A stale job is followed again, owed results downloaded again, and a create whose answer was lost looked for in the service’s usage report. Nothing is sent again.',
    )
    .argument('<job|batch>', 'a job id (j_…) or a batch id (b_…): every job of it in doubt')
    .option(...dataDir)
    .addOption(allowHostOption())
    .action(async (id: string, options: OutboundFlags & { dataDir: string }) => {
      // It asks the service and follows what it rechecked to the end, like `resume`: it drives the queue,
      // its creates still to be sent included (their input from this network allowed as `resume` allows it).
      await decideAndFollow(
        { dataDir: options.dataDir, holderName: 'adbatch recheck', allowHosts: options.allowHost },
        id,
        (cli, ofBatch) => cli.call(ofBatch ? 'batches:recheck' : 'jobs:recheck', { id }),
        (batch) => `Checking again what ${batch.name} has in doubt (free: nothing is sent again).`,
      );
    });
}
