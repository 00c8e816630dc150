import { describe, expect, it } from 'vitest';
import { BrandStore } from '../../../../src-main/core/ledger/brand-store.ts';
import { usageView } from '../../../../src-main/core/ledger/usage.ts';
import { monthOf } from '../../../../src-main/shared/usage-period.ts';
import { newBatch, products, shootAndVideo, storePerTest, submitAndAccept } from '../queue/store-fixtures.ts';

// The Usage view's days are UTC days: a charge lands on the day it was made, morning or evening, in a real
// SQLite file (an evening charge once landed on the next day: the day was computed by dividing a REAL); a
// refund on the day the service reported the failure, not on its charge's day.

const ctx = storePerTest();

/** The days of the month whose net is not 0, after one shoot charged at `at`. */
function chargedDaysAt(at: number): number[] {
  ctx.clock.now = at;
  const batch = ctx.store.createBatch(newBatch({ products: products(1) }));
  const { shoot } = shootAndVideo(ctx, batch.id, 0);
  submitAndAccept(ctx, shoot.id);
  const now = () => ctx.clock.now;
  const view = usageView(
    { db: ctx.db, store: ctx.store, brands: new BrandStore(ctx.db, ctx.store.caps, now), now },
    monthOf(at),
    [],
  );
  expect(view.totals.net).toBe(shoot.price);
  return view.days.filter((day) => day.net.some((net) => net !== 0)).map((day) => day.day);
}

describe('usage by day', () => {
  it.each([
    ['just after midnight', Date.UTC(2026, 10, 26, 0, 0, 1)],
    ['in the morning', Date.UTC(2026, 10, 26, 9, 0)],
    ['in the evening', Date.UTC(2026, 10, 26, 21, 30)],
    ['just before midnight', Date.UTC(2026, 10, 26, 23, 59, 59)],
  ])('puts a charge made %s on its own UTC day', (_, at) => {
    expect(chargedDaysAt(at)).toEqual([Date.UTC(2026, 10, 26)]);
  });
});

describe('refunds by day', () => {
  it('puts a refund on the day it was made, and the charge it returns on its own', () => {
    const chargedAt = Date.UTC(2026, 10, 10, 22, 0);
    const refundedAt = Date.UTC(2026, 10, 12, 1, 30);
    ctx.clock.now = chargedAt;
    const batch = ctx.store.createBatch(newBatch({ products: products(1) }));
    const { shoot } = shootAndVideo(ctx, batch.id, 0);
    submitAndAccept(ctx, shoot.id);
    ctx.clock.now = refundedAt;
    ctx.store.jobs.failRemote(shoot.id, 'failed', { code: 'generation_failed', message: 'failed' });
    const now = () => ctx.clock.now;
    const view = usageView(
      { db: ctx.db, store: ctx.store, brands: new BrandStore(ctx.db, ctx.store.caps, now), now },
      monthOf(chargedAt),
      [],
    );
    const moved = view.days
      .filter((day) => day.refunded > 0 || day.charged.some((credits) => credits > 0))
      .map(({ day, charged, net, refunded }) => ({ day, charged, net, refunded }));
    expect(moved).toEqual([
      { day: Date.UTC(2026, 10, 10), charged: [shoot.price], net: [shoot.price], refunded: 0 },
      { day: Date.UTC(2026, 10, 12), charged: [0], net: [-shoot.price], refunded: shoot.price },
    ]);
  });
});
