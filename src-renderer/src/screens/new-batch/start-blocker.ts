import type { QuoteView } from '../../../../src-main/shared/models.ts';
import { credits } from '../../format.ts';

// Why New batch's Start cannot be pressed, in a sentence, or null when it can: a disabled button that does
// not say why leaves a first-time user guessing (issue 14, point 7).

export interface StartState {
  quote: QuoteView | null;
  quoting: boolean;
  starting: boolean;
  /** The quote's failure, when the last one failed. */
  error: string | null;
  /** A model is asked for (With a model) and none is chosen yet. */
  modelMissing: boolean;
  /** An agency key whose batch is not yet billed to a client brand (nor, by choice, to none). */
  brandMissing?: boolean;
}

export function startBlocker({
  quote,
  quoting,
  starting,
  error,
  modelMissing,
  brandMissing = false,
}: StartState): string | null {
  if (starting) return null;
  if (modelMissing) return 'Pick a model for “With a model” to see the cost and start.';
  if (brandMissing) return 'Choose the client brand this batch is billed to.';
  if (quoting) return 'Pricing the batch…';
  if (!quote) return error ? `The cost could not be worked out: ${error}` : 'Pricing the batch…';
  if (quote.products.length === 0) {
    return 'Every product was already shot with these photos and settings: tick “Also shoot products already shot” to shoot them again.';
  }
  if (quote.photos.kind === 'missing') {
    return 'This service cannot read photos on this computer: set up photo storage in Settings first.';
  }
  if (quote.shortfall > 0) {
    const promised =
      quote.promised > 0 && quote.balance !== null
        ? ` leaves free (${quote.promised.toLocaleString('en')} of its ${credits(quote.balance)} ${quote.promised === 1 ? 'is' : 'are'} promised to jobs not yet charged)`
        : '';
    return `The batch costs ${credits(quote.shortfall)} more than the balance${promised}: top up, or choose fewer products or shots.`;
  }
  const passed = quote.caps.find((cap) => cap.passes);
  if (passed) {
    // "This batch's cap of 300 credits" reads inside the sentence with a small letter.
    const label = passed.scope === 'batch' ? passed.label.replace(/^This/, 'this') : passed.label;
    return `The batch costs ${credits(quote.credits)}, more than the ${credits(passed.left)} left of ${label}: raise the cap or choose fewer products or shots.`;
  }
  return null;
}
