import type { Command } from 'commander';
import type { QueueStore } from '../../core/queue/store.ts';
import { openStore } from '../drive.ts';
import { EXIT } from '../exit-codes.ts';
import { defaultDataDir } from '../paths.ts';

// The user's decisions, on batches (pause, cancel) and on jobs that need one (retry, abandon, recheck).
// They change the queue database only; a running `adbatch run` or `resume` picks them up at once, and
// `adbatch resume` acts on them otherwise.

function withStore(dataDir: string, action: (store: QueueStore) => void): void {
  const store = openStore(dataDir);
  try {
    action(store);
  } catch (error) {
    process.stderr.write(`adbatch: ${(error as Error).message}\n`);
    process.exitCode = EXIT.error;
  } finally {
    store.db.close();
  }
}

/** A batch that can still be paused or cancelled: one that exists and has not finished or been cancelled. */
function requireOpenBatch(store: QueueStore, id: string) {
  const batch = store.batch(id);
  if (!batch) throw new Error(`no batch ${id}: see adbatch status`);
  if (batch.status === 'finished' || batch.status === 'cancelled') {
    throw new Error(`batch ${id} is ${batch.status}: nothing is left to pause or cancel`);
  }
  return batch;
}

function requireJob(store: QueueStore, id: string) {
  const job = store.job(id);
  if (!job) throw new Error(`no job ${id}: see adbatch status <batch>`);
  return job;
}

export function registerDecisionCommands(program: Command): void {
  const dataDir = ['--data-dir <dir>', 'where the queue database lives', defaultDataDir()] as const;

  program
    .command('pause')
    .description('Stop creating jobs in a batch; jobs already created are still followed and downloaded.')
    .argument('<batch>', 'a batch id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      withStore(options.dataDir, (store) => {
        requireOpenBatch(store, id);
        store.pauseBatch(id);
        process.stdout.write(`Paused ${id}. adbatch resume continues it.\n`);
      }),
    );

  program
    .command('cancel')
    .description('Cancel what a batch has not created yet; created jobs are still followed and downloaded.')
    .argument('<batch>', 'a batch id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      withStore(options.dataDir, (store) => {
        requireOpenBatch(store, id);
        const cancelled = store.cancelBatch(id);
        process.stdout.write(`Cancelled ${id}: ${cancelled} jobs will not be created.\n`);
      }),
    );

  program
    .command('retry')
    .description('Send a failed or outcome-unknown job again. It costs credits again.')
    .argument('<job>', 'a job id')
    .option('--yes', 'confirm that the credits may be spent again')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string; yes?: boolean }) =>
      withStore(options.dataDir, (store) => {
        const job = requireJob(store, id);
        if (job.state !== 'failed' && job.state !== 'outcome_unknown') {
          throw new Error(`job ${id} is ${job.state}: only failed and outcome-unknown jobs can be retried`);
        }
        const warning =
          job.state === 'outcome_unknown'
            ? `The service may already have created and charged this ${job.kind}; sending it again costs up to ${job.price} more credits.`
            : `Sending this ${job.kind} again costs ${job.price} credits.`;
        if (!options.yes) throw new Error(`${warning} Add --yes to retry it.`);
        store.retryJob(id);
        process.stdout.write(`${warning}\nQueued ${id} again; adbatch resume sends it.\n`);
      }),
    );

  program
    .command('abandon')
    .description('Never send an outcome-unknown job again (check the service for whether it was created).')
    .argument('<job>', 'a job id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      withStore(options.dataDir, (store) => {
        requireJob(store, id);
        store.abandonJob(id);
        process.stdout.write(`Abandoned ${id}.\n`);
      }),
    );

  program
    .command('recheck')
    .description('Follow a stale job again (one still unfinished past its deadline).')
    .argument('<job>', 'a job id')
    .option(...dataDir)
    .action((id: string, options: { dataDir: string }) =>
      withStore(options.dataDir, (store) => {
        requireJob(store, id);
        store.recheckJob(id, Date.now() + 30 * 60_000);
        process.stdout.write(`Following ${id} again for 30 minutes; adbatch resume polls it.\n`);
      }),
    );
}
