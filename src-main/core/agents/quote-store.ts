import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/open.ts';
import {
  type AgentPlan,
  storedAgentPlan,
  storedNewProduct,
  tryReadStored,
  UnreadableError,
} from '../db/stored.ts';
import type { NewProduct } from '../queue/types.ts';

// An agent's scans and quotes, kept in the database 30 minutes (migration 017, issue 30): any process on the
// data folder answers a scan id or a quote id another made, so a client that starts a server per call (or
// restarts it) quotes and submits as it would with one long-lived server. A row past its time, or one that
// no longer parses, is as good as gone: the agent is told to scan or quote again.

/** How long an agent's scan and quote are kept. */
export const AGENT_KEPT_MS = 30 * 60_000;

export interface HeldQuote {
  id: string;
  client: string;
  accountId: string;
  brandId: string | null;
  name: string;
  plan: AgentPlan;
  credits: number;
  balance: number | null;
  expiresAt: number;
}

interface QuoteRow {
  id: string;
  client: string;
  account_id: string;
  brand_id: string | null;
  name: string;
  plan: string;
  credits: number;
  balance: number | null;
  expires_at: number;
}

const storedProducts = z.array(storedNewProduct);

export class AgentQuoteStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Keeps a scan's products; its id for `agents:quote`. */
  holdScan(products: NewProduct[]): { id: string; expiresAt: number } {
    this.forgetExpired();
    const held = { id: `sc_${randomBytes(8).toString('hex')}`, expiresAt: this.now() + AGENT_KEPT_MS };
    this.db
      .prepare('INSERT INTO agent_scans (id, expires_at, products) VALUES (?, ?, ?)')
      .run(held.id, held.expiresAt, JSON.stringify(products));
    return held;
  }

  /** A kept scan's products; null when it is unknown, expired or unreadable. */
  scan(id: string): NewProduct[] | null {
    const row = this.db
      .prepare<[string, number], { products: string }>(
        'SELECT products FROM agent_scans WHERE id = ? AND expires_at >= ?',
      )
      .get(id, this.now());
    if (!row) return null;
    const products = tryReadStored(storedProducts, row.products, `The products of scan ${id}`);
    return products instanceof UnreadableError ? null : products;
  }

  /** Keeps a quote for `agents:submit`. */
  holdQuote(quote: Omit<HeldQuote, 'id' | 'expiresAt'>): HeldQuote {
    this.forgetExpired();
    const held = {
      ...quote,
      id: `q_${randomBytes(8).toString('hex')}`,
      expiresAt: this.now() + AGENT_KEPT_MS,
    };
    this.db
      .prepare(
        `INSERT INTO agent_quotes (id, client, account_id, brand_id, name, plan, credits, balance, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        held.id,
        held.client,
        held.accountId,
        held.brandId,
        held.name,
        JSON.stringify(held.plan),
        held.credits,
        held.balance,
        held.expiresAt,
      );
    return held;
  }

  /** A kept quote, expired or not (the caller says which); null when unknown or unreadable. */
  quote(id: string): HeldQuote | null {
    const row = this.db.prepare<[string], QuoteRow>('SELECT * FROM agent_quotes WHERE id = ?').get(id);
    if (!row) return null;
    const plan = tryReadStored(storedAgentPlan, row.plan, `The plan of quote ${id}`);
    if (plan instanceof UnreadableError) return null;
    return {
      id: row.id,
      client: row.client,
      accountId: row.account_id,
      brandId: row.brand_id,
      name: row.name,
      plan,
      credits: row.credits,
      balance: row.balance,
      expiresAt: row.expires_at,
    };
  }

  private forgetExpired(): void {
    const now = this.now();
    // An expired quote is kept as long again, so a late submit is told it expired rather than unknown.
    this.db.prepare('DELETE FROM agent_scans WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM agent_quotes WHERE expires_at < ?').run(now - AGENT_KEPT_MS);
  }
}
