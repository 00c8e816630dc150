import { describe, expect, it } from 'vitest';
import type { QuoteView } from '../../../src-main/shared/models.ts';
import { type StartState, startBlocker } from '../../../src-renderer/src/screens/new-batch/start-blocker.ts';

// Every reason New batch's Start is disabled has its sentence, and a batch that can start has none.

const quote: QuoteView = {
  products: [{ product: 'hat', shots: 4, clamped: false, shootCredits: 4, videoCredits: 0, credits: 4 }],
  credits: 4,
  balance: 100,
  shortfall: 0,
  setAside: [],
  photos: { kind: 'this-computer' },
  videoLaterCredits: null,
  caps: [],
  attributionWarning: null,
};
const ready: StartState = { quote, quoting: false, starting: false, error: null, modelMissing: false };

describe('startBlocker', () => {
  it('lets a priced batch within the balance start', () => {
    expect(startBlocker(ready)).toBeNull();
  });

  it('names each reason Start is held back', () => {
    expect(startBlocker({ ...ready, quote: null, modelMissing: true })).toBe(
      'Pick a model for “With a model” to see the cost and start.',
    );
    expect(startBlocker({ ...ready, quoting: true })).toBe('Pricing the batch…');
    expect(startBlocker({ ...ready, quote: null, error: 'the service is unreachable' })).toBe(
      'The cost could not be worked out: the service is unreachable',
    );
    expect(startBlocker({ ...ready, quote: { ...quote, products: [] } })).toMatch(
      /^Every product was already shot with these photos and settings/,
    );
    expect(startBlocker({ ...ready, quote: { ...quote, photos: { kind: 'missing' } } })).toMatch(
      /set up photo storage in Settings first\.$/,
    );
    expect(startBlocker({ ...ready, quote: { ...quote, shortfall: 12 } })).toBe(
      'The batch costs 12 credits more than the balance: top up, or choose fewer products or shots.',
    );
  });
});
