import type { ServiceClient } from '../api/index.ts';
import type { Db } from '../db/open.ts';
import type { Batch } from '../queue/types.ts';
import { type RateLimit, RequestBudget } from './budget.ts';

// The keys the engine sends with: one client per service and key, one request budget per key, and the keys
// the service refused (their batches are paused; nothing more is sent with them in this run).

export class ServiceKeys {
  private readonly budgets = new Map<string, RequestBudget>();
  private readonly clients = new Map<string, ServiceClient>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clientFor: (batch: Batch) => ServiceClient | null,
    private readonly rateLimit: RateLimit,
    private readonly now: () => number,
  ) {}

  budget(keyId: string): RequestBudget {
    let budget = this.budgets.get(keyId);
    if (!budget) {
      budget = new RequestBudget(this.db, keyId, this.rateLimit, this.now);
      this.budgets.set(keyId, budget);
    }
    return budget;
  }

  /** Every budget used so far. */
  allBudgets(): Iterable<RequestBudget> {
    return this.budgets.values();
  }

  /**
   * The client for this batch's service and key; null when this run holds no key for it. A missing key is
   * asked for again each time, because the app's user can add it while the engine runs.
   */
  client(batch: Batch): ServiceClient | null {
    const cacheKey = `${batch.baseUrl} ${batch.keyId}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      client = this.clientFor(batch) ?? undefined;
      if (client) this.clients.set(cacheKey, client);
    }
    return client ?? null;
  }

  refuse(keyId: string): void {
    this.refused.add(keyId);
  }

  isRefused(keyId: string): boolean {
    return this.refused.has(keyId);
  }

  /** A key of these batches that we hold and the service has not refused. */
  usable(keyId: string, batches: readonly Batch[]): boolean {
    const batch = batches.find((candidate) => candidate.keyId === keyId);
    return batch !== undefined && !this.refused.has(keyId) && this.client(batch) !== null;
  }
}
