import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrandStore } from '../../../../src-main/core/ledger/brand-store.ts';
import { usageView } from '../../../../src-main/core/ledger/usage.ts';
import { monthOf } from '../../../../src-main/shared/usage-period.ts';
import {
  newBatch,
  openStore,
  products,
  type StoreContext,
  shootAndVideo,
  submitAndAccept,
} from '../queue/store-fixtures.ts';

// The Usage view's days are UTC days: a charge lands on the day it was made, morning or evening, in a real
// SQLite file. (An evening charge once landed on the next day: the day was computed by dividing a REAL.)

let ctx: StoreContext;
beforeEach(async () => {
  ctx = await openStore();
});
afterEach(() => ctx.close());

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
