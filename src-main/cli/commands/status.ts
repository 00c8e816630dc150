import type { Command } from 'commander';
import type { BatchDetail, BatchSummary } from '../../shared/models.ts';
import { hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';

// `adbatch status`: reads the queue beside whatever drives it (the app, another `adbatch run`), never
// taking it.

/** What the user can do about a job that waits for a decision. */
const DECISION_HINTS: Partial<Record<string, string>> = {
  outcome_unknown: '\n      decide: adbatch retry <job> --yes (may pay twice) or adbatch abandon <job>',
  stale: '\n      decide: adbatch recheck <job>',
  owed: '\n      paid for, not on disk: adbatch redownload <job> (free)',
  failed: '\n      to send it again (costs credits): adbatch retry <job> --yes',
};

function batchLine(batch: BatchSummary): string {
  const states = Object.entries(batch.states)
    .map(([state, count]) => `${state} ${count}`)
    .join(', ');
  const reason = batch.statusReason ? ` (${batch.statusReason.replace('_', ' ')})` : '';
  const stake = batch.creditsAtStake > 0 ? `, ${batch.creditsAtStake} at stake` : '';
  const charged = batch.creditsSpent + batch.creditsRefunded;
  return `${batch.id}  ${batch.status}${reason}  ${batch.name}\n    ${states}; credits quoted ${batch.quotedCredits}, charged ${charged}, refunded ${batch.creditsRefunded}${stake}`;
}

function jobLines(detail: BatchDetail): string[] {
  return detail.items.flatMap((product) =>
    product.jobs.map((job, index) => {
      // A product's shoots come in the order they were added: the ones after the first are reshoots.
      const shootsBefore = product.jobs.slice(0, index).filter((earlier) => earlier.kind === 'shoot').length;
      const kind = job.kind === 'shoot' && shootsBefore > 0 ? `reshoot ${shootsBefore}` : job.kind;
      const failure = job.failureMessage ? `  ${job.failureMessage}` : '';
      const hint = DECISION_HINTS[job.state]?.replaceAll('<job>', job.id) ?? '';
      const remote = job.remoteStatus ? ` (${job.remoteStatus})` : '';
      return `    ${product.name}  ${kind}  ${job.state}${remote}  ${job.creditsCharged - job.creditsRefunded}/${job.price} credits${failure}${hint}`;
    }),
  );
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Report batches: their jobs by state and their credits; with a batch id, every job of it.')
    .argument('[batch]', 'a batch id (all batches when omitted)')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--json', 'print the report as JSON')
    .action(async (batchId: string | undefined, options: { dataDir: string; json?: boolean }) => {
      if (!hasQueue(options.dataDir)) {
        if (batchId) throw new Error(`no batch ${batchId}: nothing has run with ${options.dataDir} yet`);
        process.stdout.write(options.json ? '[]\n' : `No batches yet in ${options.dataDir}.\n`);
        return;
      }
      const cli = openCliCore({ dataDir: options.dataDir, holderName: 'adbatch status', leaseMode: 'none' });
      try {
        if (batchId) {
          const detail = await cli.call('batches:get', { id: batchId }).catch(() => {
            throw new Error(`no batch ${batchId} in ${options.dataDir}`);
          });
          const { items, ...summary } = detail;
          process.stdout.write(
            options.json
              ? `${JSON.stringify(detail, null, 2)}\n`
              : `${[batchLine(summary), ...jobLines({ ...detail, items })].join('\n')}\n`,
          );
          return;
        }
        // Oldest first, as a log reads.
        const batches = (await cli.call('batches:list')).reverse();
        if (options.json) {
          process.stdout.write(`${JSON.stringify(batches, null, 2)}\n`);
          return;
        }
        if (batches.length === 0) process.stdout.write(`No batches yet in ${options.dataDir}.\n`);
        for (const batch of batches) process.stdout.write(`${batchLine(batch)}\n`);
      } finally {
        await cli.core.stop();
      }
    });
}
