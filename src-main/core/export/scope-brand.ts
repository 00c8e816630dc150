import type { BrandStore } from '../ledger/brand-store.ts';
import type { Batch } from '../queue/types.ts';
import { NO_BRAND } from './last-choice.ts';

// The client brand an export's choice is remembered for: the one brand all the scope's batches are billed
// to. Batches billed to no brand, or to several, share NO_BRAND: a mixed export is nobody's in particular.

export interface ScopeBrand {
  /** The brand's id, or NO_BRAND. */
  key: string;
  /** Its name as the service lists it; null for NO_BRAND. */
  name: string | null;
}

export function scopeBrandOf(batches: readonly Pick<Batch, 'brandId'>[], brands: BrandStore): ScopeBrand {
  const ids = new Set(batches.map((batch) => batch.brandId));
  const [only] = ids;
  if (ids.size !== 1 || !only) return { key: NO_BRAND, name: null };
  return { key: only, name: brands.find(only)?.name ?? null };
}
