import { randomBytes } from 'node:crypto';
import type { AgentRequestState } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import { type AgentPlan, storedAgentPlan, tryReadStored, UnreadableError } from '../db/stored.ts';

// Agents' requests to spend, and the allowance the user set for them (migration 011, docs/agents.md). Any
// process with the data folder reads and decides them; a request's move out of `pending` is one UPDATE that
// names the state it expects, so two deciders never both win.

export interface AgentRequest {
  id: string;
  client: string;
  clientRequestId: string;
  createdAt: number;
  accountId: string;
  brandId: string | null;
  name: string;
  /**
   * What it makes, as quoted: a new batch (its settings, and its products as they were scanned), or videos
   * added to a batch from its picks (Make videos' request, and how many products get one). A plan that no
   * longer parses (db/stored.ts) is `unreadable`, with why: such a request cannot be approved.
   */
  plan: AgentPlan | UnreadablePlan;
  credits: number;
  balance: number | null;
  state: AgentRequestState;
  decidedAt: number | null;
  decidedBy: string | null;
  reason: string | null;
  batchId: string | null;
  /** The quote it was submitted with: one quote makes one request (none before migration 014). */
  quoteId: string | null;
}

export interface UnreadablePlan {
  kind: 'unreadable';
  reason: string;
}

interface Row {
  id: string;
  client: string;
  client_request_id: string;
  created_at: number;
  account_id: string;
  brand_id: string | null;
  name: string;
  request: string;
  credits: number;
  balance: number | null;
  state: AgentRequestState;
  decided_at: number | null;
  decided_by: string | null;
  reason: string | null;
  batch_id: string | null;
  quote_id: string | null;
}

function planOf(row: Row): AgentPlan | UnreadablePlan {
  const plan = tryReadStored(storedAgentPlan, row.request, `The plan of agent request ${row.id}`);
  return plan instanceof UnreadableError ? { kind: 'unreadable', reason: plan.message } : plan;
}

function fromRow(row: Row): AgentRequest {
  return {
    id: row.id,
    client: row.client,
    clientRequestId: row.client_request_id,
    createdAt: row.created_at,
    accountId: row.account_id,
    brandId: row.brand_id,
    name: row.name,
    plan: planOf(row),
    credits: row.credits,
    balance: row.balance,
    state: row.state,
    decidedAt: row.decided_at,
    decidedBy: row.decided_by,
    reason: row.reason,
    batchId: row.batch_id,
    quoteId: row.quote_id,
  };
}

const DAY_MS = 86_400_000;

export class AgentRequestStore {
  private readonly dataVersion: () => number;
  private seenVersion: number;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.dataVersion = () => dataVersion.get()!;
    this.seenVersion = this.dataVersion();
  }

  /**
   * Whether another connection (another process) committed anything since the last call: SQLite's
   * data_version, read in microseconds, so a process alone on its data folder never reads the requests.
   */
  writtenElsewhere(): boolean {
    const version = this.dataVersion();
    const changed = version !== this.seenVersion;
    this.seenVersion = version;
    return changed;
  }

  /**
   * Writes a new pending request; when the client sent this request id before, returns that one instead.
   * A quote used by another request is the caller's to refuse first (`byQuote`): the index refuses it too.
   */
  insert(
    input: Omit<
      AgentRequest,
      'id' | 'createdAt' | 'state' | 'decidedAt' | 'decidedBy' | 'reason' | 'batchId' | 'plan' | 'quoteId'
    > & { plan: AgentPlan; quoteId: string },
  ): { request: AgentRequest; fresh: boolean } {
    const known = this.byClientRequest(input.client, input.clientRequestId);
    if (known) return { request: known, fresh: false };
    const id = `ar_${randomBytes(8).toString('hex')}`;
    this.db
      .prepare(
        `INSERT INTO agent_requests (id, client, client_request_id, created_at, account_id, brand_id, name,
           request, credits, balance, state, quote_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(
        id,
        input.client,
        input.clientRequestId,
        this.now(),
        input.accountId,
        input.brandId,
        input.name,
        JSON.stringify(input.plan),
        input.credits,
        input.balance,
        input.quoteId,
      );
    return { request: this.get(id)!, fresh: true };
  }

  get(id: string): AgentRequest | null {
    const row = this.db.prepare<[string], Row>('SELECT * FROM agent_requests WHERE id = ?').get(id);
    return row ? fromRow(row) : null;
  }

  byClientRequest(client: string, clientRequestId: string): AgentRequest | null {
    const row = this.db
      .prepare<[string, string], Row>(
        'SELECT * FROM agent_requests WHERE client = ? AND client_request_id = ?',
      )
      .get(client, clientRequestId);
    return row ? fromRow(row) : null;
  }

  /** The request a quote was submitted as, if any. */
  byQuote(quoteId: string): AgentRequest | null {
    const row = this.db
      .prepare<[string], Row>('SELECT * FROM agent_requests WHERE quote_id = ?')
      .get(quoteId);
    return row ? fromRow(row) : null;
  }

  /** Every request's state, by id: what a process compares to notice requests made or decided elsewhere. */
  states(): Map<string, AgentRequestState> {
    return new Map(
      this.db
        .prepare<[], { id: string; state: AgentRequestState }>('SELECT id, state FROM agent_requests')
        .all()
        .map((row) => [row.id, row.state]),
    );
  }

  list(limit = 500): AgentRequest[] {
    return this.db
      .prepare<[number], Row>('SELECT * FROM agent_requests ORDER BY created_at DESC, id LIMIT ?')
      .all(limit)
      .map(fromRow);
  }

  /**
   * Moves a pending request to `state`: true when this call did it, false when it was decided already (by
   * another window, process or the allowance).
   */
  decide(
    id: string,
    state: Exclude<AgentRequestState, 'pending'>,
    by: string,
    detail: { reason?: string | null; batchId?: string | null } = {},
  ): boolean {
    return (
      this.db
        .prepare(
          `UPDATE agent_requests SET state = ?, decided_at = ?, decided_by = ?, reason = ?, batch_id = ?
           WHERE id = ? AND state = 'pending'`,
        )
        .run(state, this.now(), by, detail.reason ?? null, detail.batchId ?? null, id).changes === 1
    );
  }

  /** Why a request still waits (the allowance was spent by another while it was being made). */
  noteWaiting(id: string, reason: string): void {
    this.db
      .prepare("UPDATE agent_requests SET reason = ? WHERE id = ? AND state = 'pending'")
      .run(reason, id);
  }

  /** A request claimed as created whose making then failed: it expires, saying why. */
  failMaking(id: string, reason: string): void {
    this.db
      .prepare(
        "UPDATE agent_requests SET state = 'expired', reason = ?, batch_id = NULL WHERE id = ? AND state = 'created'",
      )
      .run(reason, id);
  }

  /** Credits of the batches agents' requests made since the start of this UTC day, in all or for a brand. */
  usedToday(brandId?: string): number {
    const since = Math.floor(this.now() / DAY_MS) * DAY_MS;
    const row = this.db
      .prepare<{ since: number; brandId: string | null }, { used: number }>(
        `SELECT COALESCE(SUM(credits), 0) AS used FROM agent_requests
         WHERE state = 'created' AND decided_at >= @since AND (@brandId IS NULL OR brand_id = @brandId)`,
      )
      .get({ since, brandId: brandId ?? null })!;
    return row.used;
  }

  /** The allowance: credits a UTC day for all agents (`day`), and per brand. */
  allowances(): { perDay: number | null; perBrand: Map<string, number> } {
    const rows = this.db
      .prepare<[], { scope: string; credits: number }>('SELECT scope, credits FROM agent_allowances')
      .all();
    const perBrand = new Map<string, number>();
    let perDay: number | null = null;
    for (const row of rows) {
      if (row.scope === 'day') perDay = row.credits;
      else perBrand.set(row.scope.slice('brand:'.length), row.credits);
    }
    return { perDay, perBrand };
  }

  setAllowance(brandId: string | null, credits: number | null): void {
    const scope = brandId === null ? 'day' : `brand:${brandId}`;
    if (credits === null) this.db.prepare('DELETE FROM agent_allowances WHERE scope = ?').run(scope);
    else {
      this.db
        .prepare(
          'INSERT INTO agent_allowances (scope, credits) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET credits = excluded.credits',
        )
        .run(scope, credits);
    }
  }
}
