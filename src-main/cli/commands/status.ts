import type { Command } from 'commander';
import type { QueueStore } from '../../core/queue/store.ts';
import { openStore } from '../drive.ts';
import { defaultDataDir } from '../paths.ts';

/** What the user can do about a job that waits for a decision. */
const DECISION_HINTS: Partial<Record<string, string>> = {
  outcome_unknown: '\n      decide: adbatch retry <job> --yes (may pay twice) or adbatch abandon <job>',
  stale: '\n      decide: adbatch recheck <job>',
  failed: '\n      to send it again (costs credits): adbatch retry <job> --yes',
};

function batchLine(store: QueueStore, batchId: string): string {
  const batch = store.batch(batchId)!;
  const totals = store.totals(batchId);
  const states = Object.entries(totals.byState)
    .map(([state, count]) => `${state} ${count}`)
    .join(', ');
  const reason = batch.statusReason ? ` (${batch.statusReason.replace('_', ' ')})` : '';
  const stake = totals.atStake > 0 ? `, ${totals.atStake} at stake` : '';
  return `${batch.id}  ${batch.status}${reason}  ${batch.name}\n    ${states}; credits quoted ${batch.quotedCredits}, charged ${totals.charged}, refunded ${totals.refunded}${stake}`;
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Report batches: their jobs by state and their credits; with a batch id, every job of it.')
    .argument('[batch]', 'a batch id (all batches when omitted)')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--json', 'print the report as JSON')
    .action((batchId: string | undefined, options: { dataDir: string; json?: boolean }) => {
      const store = openStore(options.dataDir);
      try {
        const batches = batchId ? [store.batch(batchId)].filter((batch) => batch !== null) : store.batches();
        if (batchId && batches.length === 0) throw new Error(`no batch ${batchId} in ${options.dataDir}`);
        if (options.json) {
          const report = batches.map((batch) => ({
            ...batch,
            totals: store.totals(batch.id),
            jobs: batchId ? store.jobs(batch.id) : undefined,
          }));
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
          return;
        }
        if (batches.length === 0) process.stdout.write('No batches yet.\n');
        for (const batch of batches) {
          process.stdout.write(`${batchLine(store, batch.id)}\n`);
          if (!batchId) continue;
          const products = new Map(store.products(batch.id).map((product) => [product.id, product.name]));
          for (const job of store.jobs(batch.id)) {
            const failure = job.failureMessage ? `  ${job.failureMessage}` : '';
            const hint = DECISION_HINTS[job.state]?.replaceAll('<job>', job.id) ?? '';
            process.stdout.write(
              `    ${products.get(job.productId)}  ${job.kind}  ${job.state}${job.remoteStatus ? ` (${job.remoteStatus})` : ''}  ${job.creditsCharged - job.creditsRefunded}/${job.price} credits${failure}${hint}\n`,
            );
          }
        }
      } finally {
        store.db.close();
      }
    });
}
