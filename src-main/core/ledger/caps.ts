import { monthOf } from '../../shared/usage-period.ts';
import type { Db } from '../db/open.ts';
import type { Batch } from '../queue/types.ts';
import { LEDGER_SUMS } from './ledger-store.ts';

// Budgets that hold: a client brand's monthly cap and a batch's own, checked against the ledger before every
// create. What a cap counts as spent is what may have left the account: charges less refunds, credits at
// stake not yet resolved, and the price of every create whose intent is committed but whose answer is not
// recorded yet. Because it is read from the database in the transaction that commits the next intent, a
// cap holds across a crash (the interrupted create is at stake) and across batches of the same brand.
//
// GUESS: a month is a calendar month in UTC, the period the service's usage report defaults to ("start of
// the current calendar month"; its time zone is not shown).

/** Where a cap stands; `committed` counts what is at stake and in flight too. */
export interface CapStanding {
  scope: 'brand' | 'batch';
  /** The brand's name, or the batch's. */
  name: string;
  cap: number;
  committed: number;
  /** "Acme Outdoor's November budget of 2,000 credits", "This batch's cap of 300 credits". */
  label: string;
}

/** A cap warns once this share of it is committed. */
export const CAP_WARNING_SHARE = 0.8;

const credits = new Intl.NumberFormat('en-US');
const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

export function brandCapLabel(brandName: string, cap: number, at: number): string {
  return `${brandName}'s ${monthName.format(at)} budget of ${credits.format(cap)} credits`;
}

export function batchCapLabel(cap: number): string {
  return `This batch's cap of ${credits.format(cap)} credits`;
}

/** The sentence a batch pauses with, and a preview refuses with. */
export function capReachedMessage(standing: CapStanding): string {
  return `${standing.label} is reached (${credits.format(standing.committed)} spent or at stake).`;
}

export class Caps {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** The caps a batch runs under, with what each has committed so far. */
  standings(batch: Pick<Batch, 'id' | 'name' | 'brandId' | 'creditCap'>): CapStanding[] {
    const standings: CapStanding[] = [];
    const brand = batch.brandId ? this.brandStanding(batch.brandId) : null;
    if (brand) standings.push(brand);
    if (batch.creditCap !== null) {
      standings.push({
        scope: 'batch',
        name: batch.name,
        cap: batch.creditCap,
        committed: this.committed('batch_id', batch.id, null),
        label: batchCapLabel(batch.creditCap),
      });
    }
    return standings;
  }

  /** What a brand's batches committed this month: spent, at stake and being sent. */
  brandCommitted(brandId: string): number {
    return this.committed('brand_id', brandId, monthOf(this.now()));
  }

  /** A brand's monthly cap this month, or null when it has none. */
  brandStanding(brandId: string): CapStanding | null {
    const brand = this.db
      .prepare<[string], { name: string; monthly_cap: number | null }>(
        'SELECT name, monthly_cap FROM brands WHERE id = ?',
      )
      .get(brandId);
    if (!brand || brand.monthly_cap === null) return null;
    const now = this.now();
    return {
      scope: 'brand',
      name: brand.name,
      cap: brand.monthly_cap,
      committed: this.committed('brand_id', brandId, monthOf(now)),
      label: brandCapLabel(brand.name, brand.monthly_cap, now),
    };
  }

  /**
   * The first cap that sending `price` more would pass, or null. Read in the transaction that commits the
   * intent (JobRunner), so two batches of one brand cannot both take the last credits under its cap.
   */
  wouldPass(batch: Batch, price: number): CapStanding | null {
    return this.standings(batch).find((standing) => standing.committed + price > standing.cap) ?? null;
  }

  /** The cap whose warning share was crossed by the last `charged` credits, if one was. */
  crossedWarning(batch: Batch, charged: number): CapStanding | null {
    return (
      this.standings(batch).find((standing) => {
        const line = standing.cap * CAP_WARNING_SHARE;
        return standing.committed >= line && standing.committed - charged < line;
      }) ?? null
    );
  }

  /** What the ledger holds against a brand (in a period) or a batch (all time), plus its creates in flight. */
  private committed(
    column: 'brand_id' | 'batch_id',
    id: string,
    period: { from: number; to: number } | null,
  ): number {
    const inPeriod = period ? 'AND at >= @from AND at < @to' : '';
    const ledger = this.db
      .prepare<object, { charged: number; refunded: number; pending: number }>(
        `SELECT ${LEDGER_SUMS} FROM ledger_money AS ledger WHERE ${column} = @id ${inPeriod}`,
      )
      .get({ id, ...(period ?? {}) })!;
    const inFlight = this.db
      .prepare<object, { credits: number }>(
        `SELECT COALESCE(SUM(jobs.price), 0) AS credits FROM jobs JOIN batches ON batches.id = jobs.batch_id
         WHERE jobs.state = 'submitting' AND batches.${column === 'batch_id' ? 'id' : 'brand_id'} = @id`,
      )
      .get({ id })!;
    return ledger.charged - ledger.refunded + ledger.pending + inFlight.credits;
  }
}
