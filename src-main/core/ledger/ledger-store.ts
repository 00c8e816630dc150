import type { Db } from '../db/open.ts';
import type { BatchId, JobId } from '../queue/ids.ts';

// The ledger: one append-only entry per movement of credits (docs/ledger.md). Credits are positive integers;
// the type says which way they moved. An entry is idempotent by (job, attempt, type): writing it again, as a
// replay after a crash does, changes nothing. Triggers refuse edits and deletions: a correction is a new
// entry. Each entry copies the job's product, batch, brand, account and key when it is written, so a later
// change of a batch's brand never rewrites what was billed.

/**
 * charge             the service's 201 charged it (`credits_used`, `credits_remaining` kept beside)
 * refund             the service reported the job failed: it refunds
 * at_stake           the create's outcome is unknown (a timeout, a dropped connection, a crash mid-POST):
 *                    the credits may have been charged; a cap counts them until they are resolved
 * at_stake_charged   resolved: the service did charge them
 * at_stake_released  resolved: the service did not
 */
export const LEDGER_TYPES = [
  'charge',
  'refund',
  'at_stake',
  'at_stake_charged',
  'at_stake_released',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

export interface LedgerEntry {
  id: number;
  at: number;
  type: LedgerType;
  credits: number;
  jobId: JobId;
  attempt: number;
  jobKind: 'shoot' | 'video';
  remoteId: string | null;
  productId: string;
  batchId: BatchId;
  brandId: string | null;
  accountId: string;
  keyId: string;
  /** The balance the service reported with the entry (`credits_remaining` of a 201); null otherwise. */
  balanceAfter: number | null;
  note: string | null;
  /** The agent whose request made the batch (its MCP client's name); null: a person's batch. */
  agentClient: string | null;
}

/** What a set of entries adds up to. `net` is what was spent for certain; `pending` may yet be. */
export interface LedgerTotals {
  charged: number;
  refunded: number;
  pending: number;
  net: number;
}

/** Which entries: any of these that is set narrows the set. Times are epoch ms, `to` excluded. */
export interface LedgerFilter {
  batchId?: string;
  /** A brand's id; null: the entries of no brand. */
  brandId?: string | null;
  accountIds?: readonly string[];
  from?: number;
  to?: number;
}

interface EntryRow {
  id: number;
  at: number;
  type: LedgerType;
  credits: number;
  job_id: JobId;
  attempt: number;
  job_kind: 'shoot' | 'video';
  remote_id: string | null;
  product_id: string;
  batch_id: BatchId;
  brand_id: string | null;
  account_id: string;
  key_id: string;
  balance_after: number | null;
  note: string | null;
  agent_client: string | null;
}

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: row.id,
    at: row.at,
    type: row.type,
    credits: row.credits,
    jobId: row.job_id,
    attempt: row.attempt,
    jobKind: row.job_kind,
    remoteId: row.remote_id,
    productId: row.product_id,
    batchId: row.batch_id,
    brandId: row.brand_id,
    accountId: row.account_id,
    keyId: row.key_id,
    balanceAfter: row.balance_after,
    note: row.note,
    agentClient: row.agent_client,
  };
}

// Not INSERT OR IGNORE: that would also swallow a CHECK failure, an amount or a type the ledger must refuse.

/** The WHERE clause and its named parameters for a filter. */
export function ledgerWhere(filter: LedgerFilter, table = 'ledger'): { sql: string; params: object } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.batchId !== undefined) {
    clauses.push(`${table}.batch_id = @batchId`);
    params.batchId = filter.batchId;
  }
  if (filter.brandId !== undefined) {
    clauses.push(filter.brandId === null ? `${table}.brand_id IS NULL` : `${table}.brand_id = @brandId`);
    if (filter.brandId !== null) params.brandId = filter.brandId;
  }
  if (filter.accountIds !== undefined) {
    clauses.push(`${table}.account_id IN (SELECT value FROM json_each(@accountIds))`);
    params.accountIds = JSON.stringify(filter.accountIds);
  }
  if (filter.from !== undefined) {
    clauses.push(`${table}.at >= @from`);
    params.from = filter.from;
  }
  if (filter.to !== undefined) {
    clauses.push(`${table}.at < @to`);
    params.to = filter.to;
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * The money rule's sums over `ledger_money` (migration 013, which holds the rule itself), as `charged`,
 * `refunded` and `pending`: what the totals, the caps and the usage are computed from. Select them
 * `FROM ledger_money AS ledger`, so a query's other columns still read `ledger.`.
 */
export const LEDGER_SUMS = `
  COALESCE(SUM(ledger.charged), 0) AS charged,
  COALESCE(SUM(ledger.refunded), 0) AS refunded,
  COALESCE(SUM(ledger.at_stake), 0) AS pending`;

/** Net spend (charged less refunded) over `ledger_money AS ledger`. */
export const LEDGER_NET = 'COALESCE(SUM(ledger.charged - ledger.refunded), 0)';

export class LedgerStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /**
   * Writes an entry for the job's current attempt, copying who it belongs to from the job and its batch.
   * Returns false when the entry was already there (a replay): nothing is written twice.
   */
  record(
    jobId: JobId,
    type: LedgerType,
    credits: number,
    options: { balanceAfter?: number | null; attempt?: number; note?: string } = {},
  ): boolean {
    if (!Number.isSafeInteger(credits) || credits < 0) {
      throw new Error(`a ledger entry moves a whole, non-negative number of credits, not ${credits}`);
    }
    const result = this.db
      .prepare(
        `INSERT INTO ledger (at, type, credits, job_id, attempt, job_kind, remote_id, product_id,
           batch_id, brand_id, account_id, key_id, balance_after, note, agent_client)
         SELECT @at, @type, @credits, jobs.id, COALESCE(@attempt, MAX(jobs.posts, 1)), jobs.kind,
           CASE WHEN @type IN ('charge', 'refund') THEN jobs.remote_id END, jobs.product_id, jobs.batch_id, batches.brand_id, batches.account_id,
           batches.key_id, @balanceAfter, @note, batches.agent_client
         FROM jobs JOIN batches ON batches.id = jobs.batch_id WHERE jobs.id = @jobId
         ON CONFLICT (job_id, attempt, type) DO NOTHING`,
      )
      .run({
        at: this.now(),
        type,
        credits,
        jobId,
        attempt: options.attempt ?? null,
        balanceAfter: options.balanceAfter ?? null,
        note: options.note ?? null,
      });
    return result.changes === 1;
  }

  entries(filter: LedgerFilter = {}): LedgerEntry[] {
    const { sql, params } = ledgerWhere(filter);
    return this.db
      .prepare<object, EntryRow>(`SELECT * FROM ledger ${sql} ORDER BY id`)
      .all(params)
      .map(toEntry);
  }

  totals(filter: LedgerFilter = {}): LedgerTotals {
    const { sql, params } = ledgerWhere(filter);
    const row = this.db
      .prepare<object, { charged: number; refunded: number; pending: number }>(
        `SELECT ${LEDGER_SUMS} FROM ledger_money AS ledger ${sql}`,
      )
      .get(params)!;
    return { ...row, net: row.charged - row.refunded };
  }

  /** The at-stake entries not resolved yet, oldest first. */
  unresolved(filter: LedgerFilter = {}): LedgerEntry[] {
    const { sql, params } = ledgerWhere(filter, 'stake');
    return this.db
      .prepare<object, EntryRow>(
        `SELECT stake.* FROM ledger AS stake ${sql ? `${sql} AND` : 'WHERE'} stake.type = 'at_stake'
           AND NOT EXISTS (SELECT 1 FROM ledger AS done WHERE done.job_id = stake.job_id
             AND done.attempt = stake.attempt AND done.type IN ('at_stake_charged', 'at_stake_released'))
         ORDER BY stake.id`,
      )
      .all(params)
      .map(toEntry);
  }
}
