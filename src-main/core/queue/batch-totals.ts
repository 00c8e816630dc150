import { IN_DOUBT_JOB_STATES, type JobState, ODD_ANSWERS, oddAnswerCode } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import { LEDGER_SUMS } from '../ledger/ledger-store.ts';
import type { BatchId } from './ids.ts';

// What a batch's jobs add up to: how many in each state, the credits charged and refunded (from the
// ledger), the credits at stake (the ledger's too), and its products. Read for every batch at once by the Batches screen.

export interface BatchTotals {
  jobs: number;
  byState: Partial<Record<JobState, number>>;
  charged: number;
  refunded: number;
  /** Credits that jobs whose create's outcome is unknown may have cost (the ledger's unresolved stakes). */
  atStake: number;
  /** Jobs the service accepted (a remote id recorded), whatever became of them since. */
  created: number;
  /** Jobs that make a video; the others make shoots. */
  videos: number;
  /** The credits the jobs in doubt hold: kept by the service (charged, not refunded) or at stake. */
  inDoubt: number;
  /** Stale jobs the service answered about without their results (BatchProgress `staleOnAnswers`). */
  staleOnAnswers: number;
}

export type TotalsWithProducts = BatchTotals & { products: number };

export const emptyTotals = (): TotalsWithProducts => ({
  jobs: 0,
  byState: {},
  charged: 0,
  refunded: 0,
  atStake: 0,
  created: 0,
  videos: 0,
  inDoubt: 0,
  staleOnAnswers: 0,
  products: 0,
});

/** The failure codes of a job stale on an odd answer, as a JSON list for `json_each`. */
const ODD_ANSWER_CODES = JSON.stringify(
  ODD_ANSWERS.flatMap((answer) => [oddAnswerCode(answer, false), oddAnswerCode(answer, true)]),
);

/** The totals of one batch (`batchId`) or of every batch (null), in four queries. */
export function collectTotals(db: Db, batchId: string | null): Map<BatchId, TotalsWithProducts> {
  const all = new Map<BatchId, TotalsWithProducts>();
  const of = (id: BatchId) => {
    let totals = all.get(id);
    if (!totals) {
      totals = emptyTotals();
      all.set(id, totals);
    }
    return totals;
  };
  // Two texts, not `@batchId IS NULL OR …`: SQLite would scan every batch's rows to answer for one.
  const where = batchId === null ? '' : 'WHERE batch_id = @batchId';
  const params = batchId === null ? {} : { batchId };
  for (const row of db
    .prepare<
      object,
      { batch_id: BatchId; state: JobState; n: number; created: number; videos: number; odd: number }
    >(
      `SELECT batch_id, state, COUNT(*) AS n, SUM(accepted_at IS NOT NULL) AS created, SUM(kind = 'video') AS videos,
         SUM(state = 'stale' AND failure_code IN (SELECT value FROM json_each(@odd))) AS odd
       FROM jobs ${where} GROUP BY batch_id, state`,
    )
    .all({ ...params, odd: ODD_ANSWER_CODES })) {
    const totals = of(row.batch_id);
    totals.byState[row.state] = row.n;
    totals.staleOnAnswers += row.odd;
    totals.jobs += row.n;
    totals.created += row.created;
    totals.videos += row.videos;
  }
  for (const row of db
    .prepare<object, { batch_id: BatchId; charged: number; refunded: number; pending: number }>(
      `SELECT batch_id, ${LEDGER_SUMS} FROM ledger_money AS ledger ${where} GROUP BY batch_id`,
    )
    .all(params)) {
    const totals = of(row.batch_id);
    totals.charged = row.charged;
    totals.refunded = row.refunded;
    totals.atStake = row.pending;
  }
  for (const row of db
    .prepare<object, { batch_id: BatchId; credits: number }>(
      `SELECT ledger.batch_id, COALESCE(SUM(ledger.charged - ledger.refunded + ledger.at_stake), 0) AS credits
       FROM ledger_money AS ledger JOIN jobs ON jobs.id = ledger.job_id
       WHERE jobs.state IN (SELECT value FROM json_each(@doubt))
         ${batchId === null ? '' : 'AND ledger.batch_id = @batchId'}
       GROUP BY ledger.batch_id`,
    )
    .all({ ...params, doubt: JSON.stringify(IN_DOUBT_JOB_STATES) })) {
    of(row.batch_id).inDoubt = row.credits;
  }
  for (const row of db
    .prepare<object, { batch_id: BatchId; n: number }>(
      `SELECT batch_id, COUNT(*) AS n FROM products ${where} GROUP BY batch_id`,
    )
    .all(params)) {
    of(row.batch_id).products = row.n;
  }
  return all;
}

/** One batch's totals; zeros for a batch without jobs. */
export function totalsOf(db: Db, batchId: string): BatchTotals {
  const { products: _products, ...totals } =
    collectTotals(db, batchId).values().next().value ?? emptyTotals();
  return totals;
}
