import type { BatchSummary } from '../../shared/models.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import { AppError } from '../app/errors.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { NewJob, SpendMark } from '../queue/job-store.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import { balanceLeft, balanceWords, decideSpending } from '../queue/spend.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch } from '../queue/types.ts';
import { batchSummary } from '../queue/views.ts';

// Jobs added to a batch that already ran (videos from the picks, a reshoot), in one sequence for both: the
// plan is quoted against the balance of the batch's key, to the credit; a cancelled batch, a plan with
// nothing to make and a balance short of the quote are refused; then, in one spending decision (queue/spend.ts),
// every limit is checked again against the database (the batch not cancelled meanwhile, the plan's own
// recheck, the balance less what was committed meanwhile) and the jobs are added (`QueueStore.addJobs`);
// the batch is driven again.

/** What added jobs cost, against the balance of the batch's key. */
export interface Priced {
  credits: number;
  balance: number;
  shortfall: number;
}

/** `credits` against the balance of the batch's key: asked anew (`fresh`) before the jobs are added. */
export async function againstBalance(
  services: ServiceAccess,
  batch: Batch,
  credits: number,
  fresh: boolean,
): Promise<Priced> {
  const balance = await services.balanceOfBatch(batch, fresh);
  return { credits, balance, shortfall: Math.max(0, credits - balance) };
}

export interface Addition<Q extends Priced> {
  quote: Q;
  jobs: ReadonlyArray<Omit<NewJob, 'batchId'>>;
  /** Why there is nothing to add (said when `jobs` is empty). */
  nothing: string;
  /**
   * Throws if the plan no longer holds, given the jobs committed since `mark` (by another decision while
   * this one awaited the service); run in the spending decision, before the insert.
   */
  recheck?: (mark: SpendMark) => void;
}

export async function addToBatch<Q extends Priced>(
  ctx: { store: QueueStore; queue: QueueDriver },
  batchId: string,
  plan: (batch: Batch) => Promise<Addition<Q>>,
  /** The refusal of a quote the balance does not cover, given the balance in words (`balanceWords`). */
  tooDear: (quote: Q, balanceSaid: string) => string,
): Promise<BatchSummary> {
  const { store, queue } = ctx;
  const open = () => {
    const batch = requireBatch(store, batchId);
    if (batch.status === 'cancelled') {
      throw new AppError('conflict', `Batch ${batch.id} is cancelled: nothing new is made in it.`);
    }
    return batch;
  };
  const mark = store.jobs.mark();
  const batch = open();
  const { quote, jobs, nothing, recheck } = await plan(batch);
  if (jobs.length === 0) throw new AppError('conflict', nothing);
  if (quote.shortfall > 0)
    throw new AppError('conflict', tooDear(quote, balanceWords(quote.balance, quote.balance)));
  decideSpending(store, () => {
    open();
    recheck?.(mark);
    const left = balanceLeft(store, { balance: quote.balance, keyId: batch.keyId, mark });
    if (quote.credits > left)
      throw new AppError('conflict', tooDear(quote, balanceWords(quote.balance, left)));
    store.addJobs(batch.id, jobs);
  });
  const reopened = store.batches.get(batch.id)!;
  await queue.drive(reopened);
  return batchSummary(store, reopened, queue.facts);
}
