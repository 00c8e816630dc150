import type {
  RunwayView,
  UsageDay,
  UsageLine,
  UsageOwner,
  UsagePeriod,
  UsageView,
} from '../../shared/models.ts';
import { DAY_MS, monthOf, ownerKey } from '../../shared/usage-period.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import { SANDBOX_ACCOUNT_NAME } from '../accounts/service-access.ts';
import type { Db } from '../db/open.ts';
import type { QueueStore } from '../queue/store.ts';
import type { BrandStore } from './brand-store.ts';
import { LEDGER_NET, LEDGER_SUMS } from './ledger-store.ts';

// What the ledger says was spent in a period, by whom it is billed to: a client brand (the batch's brand),
// an agency's spend on no brand, or a personal account (and the Sandbox). Images and videos are those of
// the jobs charged in the period that completed; credits are the ledger's, to the credit.

const RUNWAY_DAYS = 7;

/** One ledger group: a batch brand (or none) and an account, with its sums. */
interface GroupRow {
  brand_id: string | null;
  account_id: string;
  account_name: string | null;
  account_type: 'personal' | 'agency' | null;
  agency_name: string | null;
  base_url: string | null;
  charged: number;
  refunded: number;
  pending: number;
  images: number;
  videos: number;
}

/** The owner a ledger group is billed to. */
export function ownerOf(
  row: Pick<
    GroupRow,
    'brand_id' | 'account_id' | 'account_name' | 'account_type' | 'agency_name' | 'base_url'
  >,
  brands: BrandStore,
): UsageOwner {
  const brand = row.brand_id ? brands.find(row.brand_id) : null;
  if (brand) return { kind: 'brand', brandId: brand.id, name: brand.name, agencyName: brand.agencyName };
  if (row.account_type === 'agency') {
    return { kind: 'unassigned', agencyName: row.agency_name, baseUrl: row.base_url ?? '' };
  }
  const name =
    row.account_id === SANDBOX_ACCOUNT_ID ? SANDBOX_ACCOUNT_NAME : (row.account_name ?? row.account_id);
  return { kind: 'account', accountId: row.account_id, name };
}

/** Whether a ledger group (its batch's brand and its account) is billed to this owner. */
export function ownerFilter(owner: UsageOwner): { sql: string; params: Record<string, string | null> } {
  if (owner.kind === 'brand')
    return { sql: 'ledger.brand_id = @ownerBrand', params: { ownerBrand: owner.brandId } };
  if (owner.kind === 'unassigned') {
    return {
      sql: `ledger.brand_id IS NULL AND accounts.type = 'agency' AND accounts.base_url = @ownerBase
        AND accounts.agency_name IS @ownerAgency`,
      params: { ownerBase: owner.baseUrl, ownerAgency: owner.agencyName },
    };
  }
  return {
    sql: "ledger.brand_id IS NULL AND COALESCE(accounts.type, 'personal') != 'agency' AND ledger.account_id = @ownerAccount",
    params: { ownerAccount: owner.accountId },
  };
}

/** Images and videos a completed job delivered, counted on its charge entry of the attempt that completed. */
export const DELIVERED = `
  COALESCE(SUM(CASE WHEN ledger.type = 'charge' AND ledger.job_kind = 'shoot' AND jobs.state IN ('downloading', 'owed', 'done')
    AND jobs.remote_id IS ledger.remote_id
    THEN (SELECT COUNT(*) FROM assets WHERE assets.job_id = jobs.id AND assets.kind = 'image') ELSE 0 END), 0) AS images,
  COALESCE(SUM(CASE WHEN ledger.type = 'charge' AND ledger.job_kind = 'video' AND jobs.state IN ('downloading', 'owed', 'done')
    AND jobs.remote_id IS ledger.remote_id THEN 1 ELSE 0 END), 0) AS videos`;

const FROM_LEDGER = `FROM ledger_money AS ledger LEFT JOIN accounts ON accounts.id = ledger.account_id
  LEFT JOIN jobs ON jobs.id = ledger.job_id`;

export function usageView(
  deps: { db: Db; store: QueueStore; brands: BrandStore; now: () => number },
  period: UsagePeriod,
  runways: RunwayView[],
): UsageView {
  const { db, brands } = deps;
  const groups = db
    .prepare<UsagePeriod, GroupRow>(
      `SELECT ledger.brand_id, ledger.account_id, accounts.name AS account_name, accounts.type AS account_type,
         accounts.agency_name, accounts.base_url, ${LEDGER_SUMS}, ${DELIVERED}
       ${FROM_LEDGER} WHERE ledger.at >= @from AND ledger.at < @to
       GROUP BY ledger.brand_id, ledger.account_id`,
    )
    .all(period);
  const lines = new Map<string, UsageLine>();
  const lineOf = (owner: UsageOwner) => {
    const key = ownerKey(owner);
    let line = lines.get(key);
    if (!line) {
      line = {
        owner,
        images: 0,
        videos: 0,
        charged: 0,
        refunded: 0,
        pending: 0,
        net: 0,
        cap: null,
        left: null,
      };
      lines.set(key, line);
    }
    return line;
  };
  // Every brand shows, spent or not: a cap left whole is worth seeing too.
  for (const brand of brands.list()) {
    lineOf({ kind: 'brand', brandId: brand.id, name: brand.name, agencyName: brand.agencyName });
  }
  for (const group of groups) {
    const line = lineOf(ownerOf(group, brands));
    line.images += group.images;
    line.videos += group.videos;
    line.charged += group.charged;
    line.refunded += group.refunded;
    line.pending += group.pending;
    line.net = line.charged - line.refunded;
  }
  const oneMonth = isOneMonth(period);
  const thisMonth = monthOf(deps.now()).from === period.from;
  for (const line of lines.values()) {
    if (line.owner.kind !== 'brand' || !oneMonth) continue;
    const brand = brands.get(line.owner.brandId);
    if (brand.monthlyCap === null) continue;
    line.cap = brand.monthlyCap;
    // This month counts what is being sent too (as the engine does); a past month only what the ledger holds.
    const committed = thisMonth ? brand.committedThisMonth : line.net + line.pending;
    line.left = Math.max(0, brand.monthlyCap - committed);
  }
  const ordered = [...lines.values()];
  return {
    period,
    lines: ordered,
    days: dailySeries(deps, period, ordered),
    totals: ordered.reduce(
      (sum, line) => ({
        images: sum.images + line.images,
        videos: sum.videos + line.videos,
        charged: sum.charged + line.charged,
        refunded: sum.refunded + line.refunded,
        pending: sum.pending + line.pending,
        net: sum.net + line.net,
      }),
      { images: 0, videos: 0, charged: 0, refunded: 0, pending: 0, net: 0 },
    ),
    runways,
  };
}

function isOneMonth(period: UsagePeriod): boolean {
  const month = monthOf(period.from);
  return month.from === period.from && month.to === period.to;
}

/**
 * Net and charged credits per line and refunds, per UTC day of the period (every day, spent or not). Each
 * ledger entry counts on its own day: a refund on the day the service reported the failure, whatever day the
 * charge it returns was made.
 */
function dailySeries(
  deps: { db: Db; brands: BrandStore },
  period: UsagePeriod,
  lines: readonly UsageLine[],
): UsageDay[] {
  const index = new Map(lines.map((line, position) => [ownerKey(line.owner), position]));
  const firstDay = Math.floor(period.from / DAY_MS) * DAY_MS;
  const days: UsageDay[] = [];
  for (let day = firstDay; day < period.to; day += DAY_MS) {
    days.push({ day, net: lines.map(() => 0), charged: lines.map(() => 0), refunded: 0 });
  }
  const rows = deps.db
    .prepare<UsagePeriod & { dayMs: number }, GroupRow & { day: number }>(
      // The day's start by remainder: a JS number is bound as REAL, and REAL division would keep the hours.
      `SELECT ledger.at - ledger.at % @dayMs AS day, ledger.brand_id, ledger.account_id,
         accounts.name AS account_name, accounts.type AS account_type, accounts.agency_name, accounts.base_url,
         ${LEDGER_SUMS}, 0 AS images, 0 AS videos
       ${FROM_LEDGER} WHERE ledger.at >= @from AND ledger.at < @to
       GROUP BY day, ledger.brand_id, ledger.account_id`,
    )
    .all({ ...period, dayMs: DAY_MS });
  for (const row of rows) {
    const day = days[Math.round((row.day - firstDay) / DAY_MS)];
    const position = index.get(ownerKey(ownerOf(row, deps.brands)));
    if (!day || position === undefined) continue;
    day.net[position]! += row.charged - row.refunded;
    day.charged[position]! += row.charged;
    day.refunded += row.refunded;
  }
  return days;
}

/**
 * Each stored account's balance (an agency's pool) and how long it lasts at the rate this computer spent
 * from it over the last 7 days: every key of the same agency counts toward its pool. The balance is the one
 * the service reported last: with a charge's 201 (`credits_remaining`, kept in the ledger) when that came
 * after the key was last checked.
 */
export function runways(
  db: Db,
  accounts: ReadonlyArray<{
    id: string;
    name: string;
    baseUrl: string;
    type: 'personal' | 'agency' | null;
    agencyName: string | null;
    balance: number | null;
    checkedAt: number | null;
  }>,
  now: number,
): RunwayView[] {
  const since = now - RUNWAY_DAYS * DAY_MS;
  const seen = new Set<string>();
  // One runway per pool: an agency's keys share one.
  const pools = accounts.filter((account) => {
    const pool = account.type === 'agency' ? `${account.baseUrl} ${account.agencyName}` : account.id;
    if (seen.has(pool)) return false;
    seen.add(pool);
    return true;
  });
  return pools.map((account) => {
    const sharing =
      account.type === 'agency'
        ? accounts
            .filter(
              (other) =>
                other.type === 'agency' &&
                other.baseUrl === account.baseUrl &&
                other.agencyName === account.agencyName,
            )
            .map((other) => other.id)
        : [account.id];
    const spent = db
      .prepare<{ ids: string; since: number }, { net: number }>(
        `SELECT ${LEDGER_NET} AS net
         FROM ledger_money AS ledger WHERE account_id IN (SELECT value FROM json_each(@ids)) AND at >= @since`,
      )
      .get({ ids: JSON.stringify(sharing), since })!.net;
    const reported = db
      .prepare<{ ids: string }, { balance: number; at: number }>(
        `SELECT balance_after AS balance, at FROM ledger
         WHERE account_id IN (SELECT value FROM json_each(@ids)) AND balance_after IS NOT NULL
         ORDER BY at DESC, id DESC LIMIT 1`,
      )
      .get({ ids: JSON.stringify(sharing) });
    const balance =
      reported && (account.checkedAt === null || reported.at > account.checkedAt)
        ? reported.balance
        : account.balance;
    const dailyRate = Math.max(0, spent) / RUNWAY_DAYS;
    const days = dailyRate > 0 && balance !== null ? Math.floor(balance / dailyRate) : null;
    return {
      accountId: account.id,
      name: account.type === 'agency' ? (account.agencyName ?? account.name) : account.name,
      balance,
      dailyRate: Math.round(dailyRate),
      days,
      low: days !== null && days < RUNWAY_DAYS,
    };
  });
}
