import type { UsagePeriod } from '../../../../src-main/shared/models.ts';
import { DAY_MS, daysPeriod, monthOf, utcDay } from '../../../../src-main/shared/usage-period.ts';

// The Usage view's periods: this month, last month, or days the user chooses, in UTC as the service and the
// caps count them (src-main/shared/usage-period.ts).

export { ownerKey, ownerName } from '../../../../src-main/shared/usage-period.ts';

export type PeriodChoice =
  | { kind: 'this-month' }
  | { kind: 'last-month' }
  | { kind: 'custom'; from: string; to: string };

/** The day of an instant as a date input shows it, UTC. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The period a choice names at `now`: [from, to); for days that are not a period, why in words. */
export function periodOf(choice: PeriodChoice, now: number): UsagePeriod | string {
  if (choice.kind === 'this-month') return monthOf(now);
  if (choice.kind === 'last-month') return monthOf(monthOf(now).from - 1);
  const from = utcDay(choice.from);
  const to = utcDay(choice.to);
  if (from === null || to === null) return 'Choose the first and the last day of the period.';
  return daysPeriod({ from, to }, now);
}

/** "November 2026", or "3 Nov 2026 – 18 Nov 2026" for a period that is not one calendar month. */
export function periodWords(period: UsagePeriod): string {
  const month = monthOf(period.from);
  if (month.from === period.from && month.to === period.to) {
    return new Date(period.from).toLocaleDateString('en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
  }
  const day = (at: number) =>
    new Date(at).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
  return `${day(period.from)} – ${day(period.to - DAY_MS)}`;
}
