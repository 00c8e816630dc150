import { z } from 'zod';
import type { AccountView, BrandView, ReconciliationView, StatementView, UsageView } from '../models.ts';
import { accountId } from './accounts.ts';
import { channel, creditAmount, none } from './channel.ts';

// Client brands and their caps, usage, the check against the service's report, statements (core/ledger/).

const brandId = z.string().min(1).max(100);

/** A period in epoch ms, a day to ten years long. */
const period = z
  .object({ from: z.number().int().min(0), to: z.number().int().min(0) })
  .strict()
  .refine((value) => value.to > value.from && value.to - value.from <= 10 * 366 * 86_400_000, {
    message: 'is not a period: its end must come after its start, at most ten years later',
  });

/** Who a line of usage is billed to: a client brand, an agency's unassigned spend, or a personal account. */
const usageOwner = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('brand'),
      brandId,
      name: z.string().max(500),
      agencyName: z.string().max(500).nullable(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('unassigned'),
      agencyName: z.string().max(500).nullable(),
      baseUrl: z.string().max(2000),
    })
    .strict(),
  z.object({ kind: z.literal('account'), accountId, name: z.string().max(500) }).strict(),
]);

export const brandsChannels = {
  /** Says which client brand an agency key is pinned to (null: not pinned); the service does not say. */
  'accounts:pin': channel<AccountView>()(z.object({ id: accountId, brandId: brandId.nullable() }).strict()),
  /** The client brands known here, every agency's, with their caps and what this month committed. */
  'brands:list': channel<BrandView[]>()(none),
  /** Lists the brands the account's key sees at the service (a pinned key sees its own only) and keeps them. */
  'brands:refresh': channel<BrandView[]>()(z.object({ accountId }).strict()),
  /** Creates a client brand at the service; the plan's quota refusal comes back in words. */
  'brands:create': channel<BrandView>()(
    z.object({ accountId, name: z.string().trim().min(1).max(200) }).strict(),
  ),
  /** Sets or clears a brand's monthly cap, in credits. */
  'brands:setCap': channel<BrandView>()(
    z.object({ id: brandId, monthlyCap: creditAmount.nullable() }).strict(),
  ),
};

export const usageChannels = {
  /** The ledger's usage in a period: per brand (or account), per day, and each pool's runway. */
  'usage:get': channel<UsageView>()(period),
  /** The service's usage report for the period beside the ledger's, every difference named. */
  'usage:reconcile': channel<ReconciliationView>()(period),
  /** A client statement: one row per job of the owner in the period, and its CSV. */
  'usage:statement': channel<StatementView>()(
    z
      .object({
        from: z.number().int().min(0),
        to: z.number().int().min(0),
        owner: usageOwner,
        /** The CSV starts with UTF-8's byte-order mark (for Excel); absent, the preference's. */
        bom: z.boolean().optional(),
      })
      .strict()
      .refine((value) => value.to > value.from, {
        message: 'is not a period: its end must come after its start',
      }),
  ),
  /** Saves the window, showing a statement, as a PDF where the user chooses (the app only). */
  'usage:printStatement': channel<{ path: string } | null>()(
    z.object({ fileName: z.string().trim().min(1).max(255) }).strict(),
  ),
};
