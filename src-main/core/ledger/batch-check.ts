import type { AccountView, ReconciliationLine } from '../../shared/models.ts';
import { monthOf } from '../../shared/usage-period.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch } from '../queue/types.ts';
import type { BrandStore } from './brand-store.ts';
import { reconcile } from './reconcile.ts';

// The check against the service's usage report that follows each finished batch (issue 15, point 5): the
// month's figures of whoever the batch was billed to, beside the ledger's, said in a notice on the batch.
// It resolves creates whose outcome was unknown, as the check on demand does. One GET per brand the key
// sees, through the key's request budget like every other request.
//
// GUESS: only batches on agency keys are checked by themselves: that is where a client is billed and where
// the service's attribution (by the key's pin) can disagree with the batch's brand. A personal account's
// usage is checked on demand, in Usage; the Sandbox bills nobody.

export type BatchCheck = (batchId: string) => Promise<void>;

/**
 * Whether the line is the one the service files the batch's spend under: a personal account's own, or for an
 * agency's key its pinned brand, or none.
 */
export function isBatchLine(line: ReconciliationLine, account: AccountView): boolean {
  const { owner } = line;
  if (account.type !== 'agency') return owner.kind === 'account' && owner.accountId === account.id;
  if (account.brandId !== null) return owner.kind === 'brand' && owner.brandId === account.brandId;
  return owner.kind === 'unassigned' && owner.baseUrl === account.baseUrl;
}

function noticeOf(line: ReconciliationLine): string {
  const name = line.owner.kind === 'unassigned' ? 'the agency’s spend on no brand' : line.owner.name;
  return `Checked with the service’s usage report for ${name} this month. ${line.explanation}`;
}

export function batchCheck(
  ctx: AppContext & {
    store: QueueStore;
    brands: BrandStore;
    services: ServiceAccess;
    queue: Pick<QueueDriver, 'nudge'>;
  },
): BatchCheck {
  const { store, brands, services, queue, events, log, now } = ctx;
  const accountOf = (batch: Batch): AccountView | null => {
    if (batch.accountId === SANDBOX_ACCOUNT_ID || !services.keyOf(batch).held) return null;
    try {
      return services.account(batch.accountId);
    } catch {
      return null;
    }
  };
  return async (batchId) => {
    const batch = store.batches.get(batchId);
    const account = batch ? accountOf(batch) : null;
    if (account?.type !== 'agency') return;
    try {
      const report = await reconcile(
        {
          db: store.db,
          store,
          brands,
          services,
          accounts: () => [account],
          now,
          batchChanged: (id) => queue.nudge(id),
        },
        monthOf(now()),
      );
      const line = report.lines.find((one) => isBatchLine(one, account));
      if (line && line.verdict !== 'unavailable') {
        events.emit('batches:notice', { id: batchId, message: noticeOf(line) });
      }
    } catch (error) {
      // The check is a courtesy after the batch: on demand in Usage, the same failure is shown in words.
      log.warn(`${batchId}: the usage check after the batch failed: ${(error as Error).message}`);
    }
  };
}
