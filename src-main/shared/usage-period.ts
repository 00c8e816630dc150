import type { UsageOwner, UsagePeriod } from './models.ts';

// Periods of usage and who a line of it is billed to, one way for every front end (the app's Usage, the
// CLI's `adbatch usage`, the MCP `usage` tool) and for core (caps, usage by day). Days and months are UTC:
// the service's usage report and the caps count calendar months in UTC (a guess kept in docs/ledger.md).

export const DAY_MS = 86_400_000;

/** The UTC calendar month `at` falls in: [from, to). */
export function monthOf(at: number): UsagePeriod {
  const date = new Date(at);
  return {
    from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    to: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
}

/** `2026-11-03` as the start of that day, UTC; null when it is no date (`2026-02-30` included). */
export function utcDay(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().slice(0, 10) === text ? at : null;
}

/**
 * [from, to) from a first and a last day (included), either left out: from the start of `now`'s month, to
 * the end of the first day's month. The error in words when the last day comes before the first.
 */
export function daysPeriod(days: { from?: number; to?: number }, now: number): UsagePeriod | string {
  const from = days.from ?? monthOf(now).from;
  const to = days.to !== undefined ? days.to + DAY_MS : monthOf(from).to;
  if (to <= from) return 'The last day comes before the first: choose them the other way round.';
  return { from, to };
}

/** A stable key for a line's owner. */
export function ownerKey(owner: UsageOwner): string {
  if (owner.kind === 'brand') return `brand:${owner.brandId}`;
  if (owner.kind === 'unassigned') return `unassigned:${owner.baseUrl}:${owner.agencyName ?? ''}`;
  return `account:${owner.accountId}`;
}

/** Who a line is billed to, for people to read: "Acme Outdoor", "No client brand (Northwind Agency)". */
export function ownerName(owner: UsageOwner): string {
  if (owner.kind === 'unassigned')
    return `No client brand${owner.agencyName ? ` (${owner.agencyName})` : ''}`;
  return owner.name;
}
