import { noun } from '../../shared/counted.ts';
import type {
  AccountView,
  ReconciliationLine,
  ReconciliationView,
  UsageOwner,
  UsagePeriod,
} from '../../shared/models.ts';
import { ownerKey } from '../../shared/usage-period.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import type { UsageReport } from '../api/types.ts';
import type { Db } from '../db/open.ts';
import type { JobId } from '../queue/ids.ts';
import type { QueueStore } from '../queue/store.ts';
import type { BrandStore } from './brand-store.ts';
import { LEDGER_NET } from './ledger-store.ts';
import { DELIVERED, ownerOf } from './usage.ts';

// The ledger beside the service's usage report, for a period: per client brand, an agency's unassigned
// spend, and each personal account. The service attributes an agency job to the brand its key is pinned
// to, so here the ledger is grouped the same way (by the brand the user pinned the key to, not the batch's
// brand): a batch billed to a brand but sent with an unpinned key is the agency's unassigned spend on both
// sides. Every difference is named. A difference equal to the credits at stake resolves them: the service
// charged those creates after all (or, with no difference, it did not); both are new ledger entries.
//
// GUESS: the service's report counts a job in the period it was created in, and its credits net of refunds
// (its description says failed jobs are refunded; the report's fields are "credits spent").
// GUESS: a usage row whose brand id is unknown and not a brand listed by the agency ("unassigned" in the
// sandbox, or none) is the agency's spend on no brand.

/** "The create whose outcome was unknown was", "The 2 creates whose outcome was unknown were". */
function unknown(count: number): string {
  return count === 1
    ? 'The create whose outcome was unknown was'
    : `The ${count} creates whose outcome was unknown were`;
}

interface Side {
  images: number;
  videos: number;
  credits: number;
}

interface LedgerGroup {
  owner: UsageOwner;
  side: Side;
  pending: Array<{ jobId: JobId; attempt: number; credits: number }>;
}

const figures = new Intl.NumberFormat('en-US');
/** `1 credit`, `1,250 credits`. */
const credits = (count: number) => `${figures.format(count)} ${noun(count, 'credit')}`;

export interface ReconcileDeps {
  db: Db;
  store: QueueStore;
  brands: BrandStore;
  services: ServiceAccess;
  accounts: () => AccountView[];
  now: () => number;
  /**
   * A job the report settled moved (outcome unknown to failed or lost), so its batch may no longer be in
   * doubt: its progress is sent again (`QueueDriver.nudge`), or a front end following events keeps showing
   * "needs you" for a batch that is finished.
   */
  batchChanged: (batchId: string) => void;
}

export async function reconcile(deps: ReconcileDeps, period: UsagePeriod): Promise<ReconciliationView> {
  const service = await serviceSides(deps, period);
  const ledger = ledgerSides(deps, period);
  const keys = new Set([...ledger.keys(), ...service.sides.keys()]);
  const lines: ReconciliationLine[] = [];
  const resolved: ReconciliationView['resolved'] = [];
  for (const key of keys) {
    const mine = ledger.get(key);
    const theirs = service.sides.get(key);
    const owner = mine?.owner ?? theirs!.owner;
    const here = mine?.side ?? { images: 0, videos: 0, credits: 0 };
    if (!theirs) {
      lines.push({
        owner,
        ledger: here,
        service: null,
        difference: null,
        verdict: 'unavailable',
        explanation:
          service.unavailable.get(key) ?? 'No key here can read this owner’s usage from the service.',
        jobs: [],
      });
      continue;
    }
    let difference = theirs.side.credits - here.credits;
    const stake = (mine?.pending ?? []).reduce((sum, entry) => sum + entry.credits, 0);
    let resolvedNote = '';
    if (stake > 0 && (difference === stake || difference === 0)) {
      const charged = difference === stake;
      for (const entry of mine!.pending) {
        // The job moves with its stake: failed when nothing was charged, lost when it was (job-store.ts).
        deps.store.jobs.resolveStake(
          entry,
          charged,
          `resolved by the usage report of ${new Date(period.from).toISOString().slice(0, 10)}`,
        );
        resolved.push({ jobId: entry.jobId, credits: entry.credits, charged });
        const job = deps.store.jobs.get(entry.jobId);
        if (job) deps.batchChanged(job.batchId);
      }
      if (charged) {
        here.credits += stake;
        difference = 0;
      }
      resolvedNote = charged
        ? ` ${unknown(mine!.pending.length)} charged after all (${credits(stake)}): now recorded.`
        : ` ${unknown(mine!.pending.length)} not charged: released.`;
    }
    const line: ReconciliationLine = {
      owner,
      ledger: here,
      service: theirs.side,
      difference,
      verdict: difference === 0 ? 'matched' : difference > 0 ? 'outside_adbatch' : 'not_at_service',
      explanation: '',
      jobs: [],
    };
    if (difference === 0)
      line.explanation = `Matched: ${credits(here.credits)} on both sides.${resolvedNote}`;
    else if (difference > 0) {
      line.explanation = `${credits(difference)} spent outside Adbatch: the service counts ${figures.format(theirs.side.credits)}, Adbatch recorded ${figures.format(here.credits)} (the service's own app and other keys share these credits).${resolvedNote}`;
    } else {
      line.jobs = refundedJobs(deps, owner, period);
      line.explanation = `${credits(-difference)} recorded here but not at the service: Adbatch recorded ${figures.format(here.credits)}, the service counts ${figures.format(theirs.side.credits)}. A refund it has not reflected yet, or spend it attributed elsewhere (a key pinned to another brand).${resolvedNote}`;
    }
    lines.push(line);
  }
  return { period, checkedAt: deps.now(), lines, resolved };
}

/** The ledger grouped as the service attributes it: agency keys by their pinned brand. */
function ledgerSides(deps: ReconcileDeps, period: UsagePeriod): Map<string, LedgerGroup> {
  const rows = deps.db
    .prepare<
      UsagePeriod,
      {
        brand_id: string | null;
        account_id: string;
        account_name: string | null;
        account_type: 'personal' | 'agency' | null;
        agency_name: string | null;
        base_url: string | null;
        net: number;
        images: number;
        videos: number;
      }
    >(
      `SELECT CASE WHEN accounts.type = 'agency' THEN accounts.brand_id END AS brand_id, ledger.account_id,
         accounts.name AS account_name, accounts.type AS account_type, accounts.agency_name, accounts.base_url,
         ${LEDGER_NET} AS net, ${DELIVERED}
       FROM ledger_money AS ledger LEFT JOIN accounts ON accounts.id = ledger.account_id LEFT JOIN jobs ON jobs.id = ledger.job_id
       WHERE ledger.at >= @from AND ledger.at < @to
       GROUP BY 1, ledger.account_id`,
    )
    .all(period);
  const groups = new Map<string, LedgerGroup>();
  for (const row of rows) {
    const owner = ownerOf(row, deps.brands);
    const key = ownerKey(owner);
    const group = groups.get(key) ?? { owner, side: { images: 0, videos: 0, credits: 0 }, pending: [] };
    group.side.images += row.images;
    group.side.videos += row.videos;
    group.side.credits += row.net;
    groups.set(key, group);
  }
  for (const entry of deps.store.ledger.unresolved(period)) {
    const account = deps.accounts().find((candidate) => candidate.id === entry.accountId);
    const owner = ownerOf(
      {
        brand_id: account?.type === 'agency' ? account.brandId : null,
        account_id: entry.accountId,
        account_name: account?.name ?? null,
        account_type: account?.type ?? null,
        agency_name: account?.agencyName ?? null,
        base_url: account?.baseUrl ?? null,
      },
      deps.brands,
    );
    const key = ownerKey(owner);
    const group = groups.get(key) ?? { owner, side: { images: 0, videos: 0, credits: 0 }, pending: [] };
    group.pending.push({ jobId: entry.jobId, attempt: entry.attempt, credits: entry.credits });
    groups.set(key, group);
  }
  return groups;
}

/**
 * The service's side: one usage report per agency (from an unpinned key, which sees every brand, else from
 * each pinned key) and per personal account, each inside its key's request budget.
 */
async function serviceSides(
  deps: ReconcileDeps,
  period: UsagePeriod,
): Promise<{ sides: Map<string, { owner: UsageOwner; side: Side }>; unavailable: Map<string, string> }> {
  const sides = new Map<string, { owner: UsageOwner; side: Side }>();
  const unavailable = new Map<string, string>();
  const query = { from: new Date(period.from), to: new Date(period.to) };
  const accounts = deps.accounts().filter((account) => account.refusedAt === null);
  const agencies = new Map<string, AccountView[]>();
  for (const account of accounts) {
    if (account.type === 'agency') {
      const agency = `${account.baseUrl} ${account.agencyName ?? ''}`;
      agencies.set(agency, [...(agencies.get(agency) ?? []), account]);
      continue;
    }
    const owner: UsageOwner = { kind: 'account', accountId: account.id, name: account.name };
    try {
      const report = await deps.services.withKey(account.id, (client) => client.getUsage(query));
      sides.set(ownerKey(owner), {
        owner,
        side: {
          images: report.totals.images ?? 0,
          videos: report.totals.videos ?? 0,
          credits: report.totals.credits ?? 0,
        },
      });
    } catch (error) {
      unavailable.set(ownerKey(owner), `The service's usage could not be read: ${(error as Error).message}`);
    }
  }
  for (const keys of agencies.values()) {
    const unpinned = keys.find((account) => account.brandId === null);
    for (const account of unpinned ? [unpinned] : keys) {
      try {
        const report = await deps.services.withKey(account.id, (client) => client.getUsage(query));
        addAgencyRows(deps, account, report, sides);
      } catch (error) {
        const message = `The service's usage could not be read with "${account.name}": ${(error as Error).message}`;
        if (account.brandId) unavailable.set(`brand:${account.brandId}`, message);
      }
    }
  }
  return { sides, unavailable };
}

function addAgencyRows(
  deps: ReconcileDeps,
  account: AccountView,
  report: UsageReport,
  sides: Map<string, { owner: UsageOwner; side: Side }>,
): void {
  // An unpinned key sees the whole agency: a brand or the unassigned spend it does not list spent nothing.
  if (account.brandId === null) {
    const nothing = { images: 0, videos: 0, credits: 0 };
    const unassigned: UsageOwner = {
      kind: 'unassigned',
      agencyName: account.agencyName,
      baseUrl: account.baseUrl,
    };
    sides.set(ownerKey(unassigned), { owner: unassigned, side: { ...nothing } });
    for (const brand of deps.brands.ofAgency(account.baseUrl, account.agencyName)) {
      const owner: UsageOwner = {
        kind: 'brand',
        brandId: brand.id,
        name: brand.name,
        agencyName: brand.agencyName,
      };
      sides.set(ownerKey(owner), { owner, side: { ...nothing } });
    }
  }
  const known = new Set(
    deps.brands.ofAgency(account.baseUrl, account.agencyName).map((brand) => brand.remoteId),
  );
  for (const row of report.rows) {
    const side = {
      images: row.images ?? 0,
      videos: row.videos ?? 0,
      credits: (row.imageCredits ?? 0) + (row.videoCredits ?? 0),
    };
    let owner: UsageOwner;
    if (row.brandId && known.has(row.brandId)) {
      const [brand] = deps.brands.remember(account.baseUrl, account.agencyName, [
        { id: row.brandId, name: row.brandName, active: true, createdAt: null },
      ]);
      owner = { kind: 'brand', brandId: brand!.id, name: brand!.name, agencyName: brand!.agencyName };
    } else {
      owner = { kind: 'unassigned', agencyName: account.agencyName, baseUrl: account.baseUrl };
    }
    const key = ownerKey(owner);
    const sum = sides.get(key)?.side ?? { images: 0, videos: 0, credits: 0 };
    sides.set(key, {
      owner,
      side: {
        images: sum.images + side.images,
        videos: sum.videos + side.videos,
        credits: sum.credits + side.credits,
      },
    });
  }
}

/** The jobs refunded in the period for an owner: what a refund not yet reflected would be among. */
function refundedJobs(
  deps: ReconcileDeps,
  owner: UsageOwner,
  period: UsagePeriod,
): ReconciliationLine['jobs'] {
  const rows = deps.db
    .prepare<
      UsagePeriod & { brand: string | null; account: string | null },
      { job_id: string; batch: string; product: string; kind: 'shoot' | 'video'; credits: number }
    >(
      `SELECT ledger.job_id, batches.name AS batch, products.name AS product, ledger.job_kind AS kind,
         ledger.credits
       FROM ledger LEFT JOIN accounts ON accounts.id = ledger.account_id
         JOIN batches ON batches.id = ledger.batch_id JOIN products ON products.id = ledger.product_id
       WHERE ledger.type = 'refund' AND ledger.at >= @from AND ledger.at < @to
         AND ((@brand IS NOT NULL AND accounts.brand_id = @brand) OR (@account IS NOT NULL AND ledger.account_id = @account)
           OR (@brand IS NULL AND @account IS NULL AND accounts.type = 'agency' AND accounts.brand_id IS NULL))
       ORDER BY ledger.id`,
    )
    .all({
      ...period,
      brand: owner.kind === 'brand' ? owner.brandId : null,
      account: owner.kind === 'account' ? owner.accountId : null,
    });
  return rows.map((row) => ({
    jobId: row.job_id,
    batchName: row.batch,
    product: row.product,
    kind: row.kind,
    credits: row.credits,
  }));
}
