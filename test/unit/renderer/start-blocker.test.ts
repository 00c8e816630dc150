import { describe, expect, it } from 'vitest';
import type { QuoteView } from '../../../src-main/shared/models.ts';
import { type StartState, startBlocker } from '../../../src-renderer/src/screens/new-batch/start-blocker.ts';

// Every reason New batch's Start is disabled has its sentence, and a batch that can start has none.

const quote: QuoteView = {
  products: [{ product: 'hat', shots: 4, clamped: false, shootCredits: 4, videoCredits: 0, credits: 4 }],
  credits: 4,
  prices: {
    shoot: { unit: 'shot', units: 4, perUnit: 1, base: 4, adjustments: [], credits: 4 },
    video: null,
  },
  balance: 100,
  promised: 0,
  shortfall: 0,
  setAside: [],
  photos: { kind: 'this-computer' },
  videoLaterCredits: null,
  caps: [],
  attributionWarning: null,
  recipeAdvice: [],
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
    // Another batch's jobs still wait their turn: what they will take is said, since the balance alone covers it.
    expect(startBlocker({ ...ready, quote: { ...quote, promised: 98, shortfall: 2 } })).toBe(
      'The batch costs 2 credits more than the balance leaves free (98 of its 100 credits are promised to jobs not yet charged): top up, or choose fewer products or shots.',
    );
    expect(startBlocker({ ...ready, brandMissing: true })).toBe(
      'Choose the client brand this batch is billed to.',
    );
  });

  it('holds back a batch that would pass a cap, naming the cap and what is left of it', () => {
    const brandCap = {
      scope: 'brand' as const,
      label: "Acme Outdoor's November budget of 2,000 credits",
      cap: 2000,
      committed: 1998,
      left: 2,
      passes: true,
      warns: true,
    };
    expect(startBlocker({ ...ready, quote: { ...quote, caps: [brandCap] } })).toBe(
      "The batch costs 4 credits, more than the 2 credits left of Acme Outdoor's November budget of 2,000 credits: raise the cap or choose fewer products or shots.",
    );
    const batchCap = {
      ...brandCap,
      scope: 'batch' as const,
      label: "This batch's cap of 3 credits",
      cap: 3,
      committed: 0,
      left: 3,
    };
    expect(startBlocker({ ...ready, quote: { ...quote, caps: [batchCap] } })).toBe(
      "The batch costs 4 credits, more than the 3 credits left of this batch's cap of 3 credits: raise the cap or choose fewer products or shots.",
    );
    // Near a cap, not past it: a warning beside the quote, and the batch starts.
    expect(
      startBlocker({ ...ready, quote: { ...quote, caps: [{ ...brandCap, left: 4, passes: false }] } }),
    ).toBeNull();
  });
});
