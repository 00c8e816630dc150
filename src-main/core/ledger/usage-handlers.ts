import type { usageChannels } from '../../shared/contract/ledger.ts';
import type { AccountView, UsagePeriod } from '../../shared/models.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import { csvBomOf } from '../util/csv.ts';
import type { BrandStore } from './brand-store.ts';
import { reconcile } from './reconcile.ts';
import { statement } from './statement.ts';
import { runways, usageView } from './usage.ts';

// Usage: what the ledger says was spent in a period, per brand and per day; the same beside the service's
// usage report; a client's statement; and its PDF, where the front end can print one.

export interface UsageDeps extends AppContext {
  store: QueueStore;
  brands: BrandStore;
  services: ServiceAccess;
  /** Told of a batch whose jobs a reconciliation moved, so its progress is sent again. */
  queue: Pick<QueueDriver, 'nudge'>;
  /** Prints the window showing a statement to a PDF the user places (the app); absent elsewhere. */
  printStatement?: (fileName: string) => Promise<{ path: string } | null>;
}

/** A session key's kind (an agency's?) is known once asked: its report is read per brand then. */
function withKind(services: ServiceAccess, account: AccountView): Promise<AccountView> | AccountView {
  return services.isSession(account.id) && account.type === null ? services.sessionView(account.id) : account;
}

/** The account whose usage report tells of a batch's spend: the Sandbox (started on demand), or its key's. */
export async function usageAccount(services: ServiceAccess, accountId: string): Promise<AccountView> {
  if (accountId === SANDBOX_ACCOUNT_ID) return services.sandboxView();
  return withKind(services, services.account(accountId));
}

export function usageHandlers(ctx: UsageDeps): HandlersOf<typeof usageChannels> {
  const { store, brands, services, queue, now } = ctx;
  const db = store.db;

  /** Every account whose key this process holds; the Sandbox's when it spent in the period (it starts on demand). */
  const knownAccounts = async (period: UsagePeriod): Promise<AccountView[]> => {
    const sandboxSpent = store.ledger.entries({ accountIds: [SANDBOX_ACCOUNT_ID], ...period }).length > 0;
    const sandbox = sandboxSpent ? await services.sandboxView().catch(() => null) : null;
    const accounts = await Promise.all(services.accountsList().map((account) => withKind(services, account)));
    return [...(sandbox ? [sandbox] : []), ...accounts];
  };

  return {
    'usage:get': async (period) =>
      usageView({ db, store, brands, now }, period, runways(db, services.accountsList(), now())),
    'usage:reconcile': async (period) => {
      const accounts = await knownAccounts(period);
      const batchChanged = (batchId: string) => queue.nudge(batchId);
      return reconcile({ db, store, brands, services, accounts: () => accounts, now, batchChanged }, period);
    },
    'usage:statement': async ({ owner, from, to, bom }) =>
      statement(db, owner, { from, to }, csvBomOf(ctx.settings(), bom)),
    'usage:printStatement': async ({ fileName }) => {
      if (!ctx.printStatement) {
        throw new AppError(
          'bad_request',
          'Saving a PDF needs the Adbatch app: here, print the statement with the browser (Print, then Save as PDF).',
        );
      }
      return ctx.printStatement(fileName);
    },
  };
}
