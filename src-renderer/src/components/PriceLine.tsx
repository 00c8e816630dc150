import { priceWords } from '../../../src-main/shared/money-words.ts';
import type { PriceBreakdown } from '../../../src-main/shared/price.ts';

// How one price adds up, under a cost: "Each video: 10 s x 4 credits a second = 40 - 6 (15 % off without a
// model) = 34 credits", from core's breakdown in the words every front end shares.

export function PriceLine({
  label,
  price,
  testId,
}: {
  label: string;
  price: PriceBreakdown;
  testId: string;
}) {
  return (
    <p className="muted price-line" data-testid={testId}>
      {label}: {priceWords(price)}
    </p>
  );
}
