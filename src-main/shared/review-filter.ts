import type { ReviewFilter, ReviewItemView } from './models.ts';

// What a Review filter keeps, once for core (review:get) and the renderer (which filters its items at once
// after a decision, within the frame): filters combine with AND; an absent one keeps everything.

type Filterable = Pick<ReviewItemView, 'flag' | 'stars' | 'kind' | 'style' | 'productName' | 'label'>;

export function isReviewed(item: Pick<ReviewItemView, 'flag' | 'stars'>): boolean {
  return item.flag !== null || item.stars > 0;
}

export function matchesReviewFilter(item: Filterable, filter: ReviewFilter): boolean {
  if (filter.flag !== undefined && (item.flag ?? 'none') !== filter.flag) return false;
  if (filter.minStars !== undefined && item.stars < filter.minStars) return false;
  if (filter.reviewed !== undefined && isReviewed(item) !== filter.reviewed) return false;
  if (filter.label !== undefined && (item.label ?? 'none') !== filter.label) return false;
  if (filter.kind !== undefined && item.kind !== filter.kind) return false;
  if (filter.style !== undefined && item.style !== filter.style) return false;
  if (filter.product !== undefined && !item.productName.toLowerCase().includes(filter.product.toLowerCase()))
    return false;
  return true;
}
