import type { AccountView } from '../../shared/models.ts';
import { monthOf } from '../../shared/usage-period.ts';
import { credits } from '../../shared/words.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import type { JobId } from '../queue/ids.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch } from '../queue/types.ts';
import { isBatchLine } from './batch-check.ts';
import type { BrandStore } from './brand-store.ts';
import { reconcile } from './reconcile.ts';
import { usageAccount } from './usage-handlers.ts';

// "Check again" on a create whose answer was lost. The service has no list of jobs and no idempotency key
// (../shared/api/ad-service-api.md): the id that would let Adbatch poll the job never arrived. What it can
// tell is its usage report: the reconciliation (reconcile.ts) settles the stakes when the service's count
// differs from the ledger's by exactly what is at stake (charged: the job is lost) or not at all (not
// charged: the job failed, nothing was spent). Nothing is posted and nothing is charged; the report is one
// GET per month asked about, inside the key's request budget. What the report cannot settle (other spending
// on the same credits blurs the difference) is said on the job, whose Retry is offered from then on.

export interface UnknownOutcomeDeps extends AppContext {
  store: QueueStore;
  brands: BrandStore;
  services: ServiceAccess;
  /** Told of a batch whose jobs the usage report settled, so its progress is sent again. */
  queue: Pick<QueueDriver, 'nudge'>;
}

/**
 * Asks the service's usage report about these outcome-unknown jobs of `batch`; what it found, in a sentence
 * for the batch's notes (the jobs' own lines say it too).
 */
export async function checkUnknownOutcomes(
  deps: UnknownOutcomeDeps,
  batch: Batch,
  jobIds: readonly JobId[],
): Promise<string> {
  const { store } = deps;
  const asked = new Set<string>(jobIds);
  // A stake resolved before its job moved with it (by an older version's reconciliation) settles it now.
  for (const entry of store.ledger.entries({ batchId: batch.id })) {
    if (!asked.has(entry.jobId)) continue;
    if (entry.type === 'at_stake_charged' || entry.type === 'at_stake_released') {
      store.jobs.resolveStake(entry, entry.type === 'at_stake_charged', entry.note ?? 'resolved before');
    }
  }
  const stakes = store.ledger.unresolved({ batchId: batch.id }).filter((entry) => asked.has(entry.jobId));
  const explanations: string[] = [];
  if (stakes.length > 0) {
    let account: AccountView | null = null;
    try {
      account = await usageAccount(deps.services, batch.accountId);
    } catch (error) {
      explanations.push(`The service’s usage could not be read: ${(error as Error).message}`);
    }
    const months = [...new Set(stakes.map((entry) => monthOf(entry.at).from))].map(monthOf);
    for (const period of account ? months : []) {
      const report = await reconcile(
        {
          db: store.db,
          store,
          brands: deps.brands,
          services: deps.services,
          accounts: () => [account!],
          now: deps.now,
          batchChanged: (id) => deps.queue.nudge(id),
        },
        period,
      );
      const line = report.lines.find((one) => isBatchLine(one, account!));
      if (line) explanations.push(line.explanation);
    }
  }
  const said = explanations.join(' ') || 'The service’s usage report had nothing to say about them.';
  const jobs = jobIds.map((id) => store.jobs.get(id)).filter((job) => job !== null);
  const unsettled = jobs.filter((job) => job.state === 'outcome_unknown');
  for (const job of unsettled) {
    store.jobs.noteUnsettled(
      job.id,
      `Asked the service’s usage report: it could not settle whether this ${job.kind} was made and charged. ${said} A retry may pay twice.`,
    );
  }
  const failed = jobs.filter((job) => job.state === 'failed').length;
  const lost = jobs.filter((job) => job.state === 'lost');
  return [
    failed > 0
      ? `${failed} not created by the service: nothing was charged for ${failed === 1 ? 'it' : 'them'}.`
      : '',
    lost.length > 0
      ? `${lost.length} charged by the service after all (${credits(lost.reduce((sum, job) => sum + job.creditsCharged, 0))}), whose results cannot be fetched: the answer with their id was lost.`
      : '',
    unsettled.length > 0 ? `${unsettled.length} still unknown: ${said}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
