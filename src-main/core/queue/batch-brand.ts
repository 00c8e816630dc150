import type { CapPreview, QuoteRequest } from '../../shared/models.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import type { ServiceAccess } from '../accounts/service-access.ts';
import { AppError } from '../app/errors.ts';
import type { BrandStore } from '../ledger/brand-store.ts';
import { batchCapLabel, CAP_WARNING_SHARE, type CapStanding } from '../ledger/caps.ts';
import type { QueueStore } from './store.ts';

// Which client brand a new batch is billed to, and the caps it would run under. A batch on an agency key
// is billed to the brand chosen, or else to the brand its key is pinned to; a key pinned to another brand
// is refused (its spend would be attributed there), an unpinned one is taken with a warning in words.

export interface BatchBilling {
  brandId: string | null;
  creditCap: number | null;
  caps: CapPreview[];
  attributionWarning: string | null;
}

const credits = new Intl.NumberFormat('en-US');

export function billingOf(
  request: QuoteRequest,
  quoted: number,
  deps: { store: QueueStore; brands: BrandStore; services: ServiceAccess },
): BatchBilling {
  const creditCap = request.creditCap ?? null;
  const account = request.accountId === SANDBOX_ACCOUNT_ID ? null : deps.services.account(request.accountId);
  const brandId = request.brandId ?? account?.brandId ?? null;
  let attributionWarning: string | null = null;
  if (brandId !== null) {
    const brand = deps.brands.find(brandId);
    if (!brand)
      throw new AppError(
        'not_found',
        'That client brand is not known here: list the brands again in Settings.',
      );
    if (account?.type !== 'agency' || account.baseUrl !== brand.baseUrl) {
      throw new AppError(
        'bad_request',
        `${brand.name} is a client brand of ${brand.agencyName ?? 'an agency'}: choose one of its agency keys.`,
      );
    }
    if (account.brandId !== null && account.brandId !== brandId) {
      throw new AppError(
        'bad_request',
        `The key "${account.name}" is pinned to ${account.brandName}: its spend goes to ${account.brandName}, not ${brand.name}. Choose a key pinned to ${brand.name}, or an unpinned one.`,
      );
    }
    if (account.brandId === null) {
      attributionWarning = `The key "${account.name}" is not pinned to a brand: the service will not attribute this batch's spend to ${brand.name} (its usage report lists it as unassigned), though Adbatch bills it to ${brand.name} here. Pin a key to ${brand.name} in Settings to have both agree.`;
    }
  }
  const standings: CapStanding[] = [];
  const brandStanding = brandId ? deps.store.caps.brandStanding(brandId) : null;
  if (brandStanding) standings.push(brandStanding);
  if (creditCap !== null) {
    standings.push({
      scope: 'batch',
      name: '',
      cap: creditCap,
      committed: 0,
      label: batchCapLabel(creditCap),
    });
  }
  const caps = standings.map((standing): CapPreview => {
    const after = standing.committed + quoted;
    return {
      scope: standing.scope,
      label: standing.label,
      cap: standing.cap,
      committed: standing.committed,
      left: Math.max(0, standing.cap - standing.committed),
      passes: after > standing.cap,
      warns: after >= standing.cap * CAP_WARNING_SHARE,
    };
  });
  return { brandId, creditCap, caps, attributionWarning };
}

/** Why a batch whose quote would pass a cap does not start, in words; null when none would be passed. */
export function capRefusal(billing: BatchBilling, quoted: number): string | null {
  const passed = billing.caps.find((cap) => cap.passes);
  if (!passed) return null;
  const label = passed.scope === 'batch' ? passed.label.replace(/^This/, 'this') : passed.label;
  return `This batch costs ${credits.format(quoted)} credits; ${label} has ${credits.format(passed.left)} left. Raise the cap or choose fewer products.`;
}
