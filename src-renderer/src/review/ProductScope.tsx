import { counted } from '../../../src-main/shared/counted.ts';
import type { ReviewItemView, ReviewProductView } from '../../../src-main/shared/models.ts';
import { dateTime, listed } from '../format.ts';
import { useNavigation } from '../stores/navigation.ts';
import { useReview } from '../stores/review.ts';

// Review of one product across every batch that shot it: the way in from a batch's review (and back), the
// product above its results with its source photos, and on each result the batch it came from.

/**
 * From a batch's review: the active result's product in every batch that shot it, on that result. From the
 * product's view: the review of the batch the result on screen came from, on it.
 */
export function toggleProductScope(): void {
  const { screen, go } = useNavigation.getState();
  const { scope, items, activeId } = useReview.getState();
  const active = items.find((item) => item.id === activeId);
  if (screen.name !== 'review' || !active) return;
  if (scope?.product === undefined) {
    go({ ...screen, scope: { product: active.productId }, focus: active.id });
  } else if (active.batch) {
    go({ name: 'review', batchId: active.batch.id, batchName: active.batch.name, focus: active.id });
  }
}

/** The batch a result came from, in a product's view; nothing in a batch's own. */
export function BatchOf({ item }: { item: ReviewItemView }) {
  if (!item.batch) return null;
  return (
    <span className="review-batch">
      {item.batch.name} · {dateTime(item.batch.createdAt)}
    </span>
  );
}

/** The product reviewed across batches: what makes it the same, its batches, and its source photos. */
export function ProductSummary({ product }: { product: ReviewProductView }) {
  const batches = product.batches.map((batch) => `${batch.name} (${dateTime(batch.createdAt)})`);
  return (
    <div className="review-product" data-testid="review-product">
      <div>
        <p>
          <strong>{product.name}</strong> <span className="muted">{product.label}</span>
        </p>
        <p className="muted">
          In {counted(product.batches.length, 'batch', 'batches')}, newest first: {listed(batches)}
        </p>
      </div>
      <ul className="review-sources" aria-label="Source photos">
        {product.sourceUrls.map((url, index) => (
          <li key={url}>
            <img
              className="review-source"
              src={url}
              alt={`${product.name}, as sent to the service (${index + 1})`}
              width={56}
              height={56}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
