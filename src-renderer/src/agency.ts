import type { AccountView, BrandView } from '../../src-main/shared/models.ts';

// Which brands and keys belong to one agency, as Settings and New batch group them: the same service, and the
// same agency's name where both know it.

export function sameAgency(
  a: Pick<AccountView, 'baseUrl' | 'agencyName'>,
  b: Pick<BrandView, 'baseUrl' | 'agencyName'>,
): boolean {
  return (
    a.baseUrl === b.baseUrl &&
    (a.agencyName === null || b.agencyName === null || a.agencyName === b.agencyName)
  );
}

/** The client brands an agency key may bill: its agency's. */
export function brandsOf(account: AccountView | undefined, brands: BrandView[]): BrandView[] {
  if (account?.type !== 'agency') return [];
  return brands.filter((brand) => sameAgency(account, brand));
}

/** The share of its monthly cap a brand committed this month, in whole percent, rounded down. */
export function capShare(brand: Pick<BrandView, 'monthlyCap' | 'committedThisMonth'>): number {
  if (!brand.monthlyCap) return 0;
  return Math.floor((brand.committedThisMonth * 100) / brand.monthlyCap);
}
