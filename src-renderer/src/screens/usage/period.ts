import type { UsageOwner, UsagePeriod } from '../../../../src-main/shared/models.ts';

// The Usage view's periods, in UTC: the service's usage report and the caps count calendar months in UTC (a
// guess of the contract kept with the others in docs/ledger.md), so a month here is the same month there.

export type PeriodChoice =
  | { kind: 'this-month' }
  | { kind: 'last-month' }
  | { kind: 'custom'; from: string; to: string };

const DAY = 86_400_000;

function monthStarting(year: number, month: number): UsagePeriod {
  return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) };
}

/** `2026-11-03` as the start of that day, UTC; null when it is no date. */
export function dayStart(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().startsWith(date) ? at : null;
}

/** The day of an instant as a date input shows it, UTC. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The period a choice names at `now`: [from, to). A custom period runs from the start of its first day to the
 * end of its last; it is an error in words when its days are not dates or the last comes before the first.
 */
export function periodOf(choice: PeriodChoice, now: number): UsagePeriod | string {
  const today = new Date(now);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  if (choice.kind === 'this-month') return monthStarting(year, month);
  if (choice.kind === 'last-month') return monthStarting(year, month - 1);
  const from = dayStart(choice.from);
  const last = dayStart(choice.to);
  if (from === null || last === null) return 'Choose the first and the last day of the period.';
  if (last < from) return 'The last day comes before the first: choose them the other way round.';
  return { from, to: last + DAY };
}

/** "November 2026", or "3 Nov 2026 – 18 Nov 2026" for a period that is not one calendar month. */
export function periodWords(period: UsagePeriod): string {
  const from = new Date(period.from);
  const month = monthStarting(from.getUTCFullYear(), from.getUTCMonth());
  if (month.from === period.from && month.to === period.to) {
    return from.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  }
  const day = (at: number) =>
    new Date(at).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
  return `${day(period.from)} – ${day(period.to - DAY)}`;
}

/** Who a line is billed to, for people to read. */
export function ownerName(owner: UsageOwner): string {
  switch (owner.kind) {
    case 'brand':
      return owner.name;
    case 'unassigned':
      return `No client brand${owner.agencyName ? ` (${owner.agencyName})` : ''}`;
    case 'account':
      return owner.name;
  }
}

/** A stable key for a line's owner. */
export function ownerKey(owner: UsageOwner): string {
  switch (owner.kind) {
    case 'brand':
      return `brand:${owner.brandId}`;
    case 'unassigned':
      return `unassigned:${owner.baseUrl}:${owner.agencyName ?? ''}`;
    case 'account':
      return `account:${owner.accountId}`;
  }
}
