import { describe, expect, it } from 'vitest';
import { utcDay as dayStart } from '../../../src-main/shared/usage-period.ts';
import { ownerName, periodOf, periodWords } from '../../../src-renderer/src/screens/usage/period.ts';

// The Usage view's periods are UTC months and days, as the service's usage report and the caps count them.

const NOW = Date.UTC(2026, 0, 14, 23, 30); // 14 January 2026, late evening UTC

describe('usage periods', () => {
  it('makes this month and last month of UTC calendar months, across a year', () => {
    expect(periodOf({ kind: 'this-month' }, NOW)).toEqual({
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 1, 1),
    });
    expect(periodOf({ kind: 'last-month' }, NOW)).toEqual({
      from: Date.UTC(2025, 11, 1),
      to: Date.UTC(2026, 0, 1),
    });
  });

  it('runs a custom period from its first day to the end of its last, and refuses one that is not', () => {
    expect(periodOf({ kind: 'custom', from: '2026-01-03', to: '2026-01-03' }, NOW)).toEqual({
      from: Date.UTC(2026, 0, 3),
      to: Date.UTC(2026, 0, 4),
    });
    expect(periodOf({ kind: 'custom', from: '2026-01-10', to: '2026-01-03' }, NOW)).toBe(
      'The last day comes before the first: choose them the other way round.',
    );
    expect(periodOf({ kind: 'custom', from: '', to: '2026-01-03' }, NOW)).toBe(
      'Choose the first and the last day of the period.',
    );
    expect(dayStart('2026-02-30')).toBeNull();
  });

  it('names a period for people', () => {
    expect(periodWords({ from: Date.UTC(2025, 11, 1), to: Date.UTC(2026, 0, 1) })).toBe('December 2025');
    expect(periodWords({ from: Date.UTC(2026, 0, 3), to: Date.UTC(2026, 0, 19) })).toBe(
      '3 Jan 2026 – 18 Jan 2026',
    );
    expect(ownerName({ kind: 'unassigned', agencyName: 'Northwind Agency', baseUrl: 'x' })).toBe(
      'No client brand (Northwind Agency)',
    );
  });
});
