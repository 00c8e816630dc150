import { describe, expect, it } from 'vitest';
import { quoteBatch, quoteShoot, quoteVideo } from '../../../src-main/core/pricing.ts';
import { SHOOT_STYLES } from '../../../src-main/shared/vocabulary.ts';

describe('quoteShoot', () => {
  it('charges shots x 1, 2 or 4 credits by quality', () => {
    expect(quoteShoot({ style: 'classic', shots: 4, quality: 'standard' }).credits).toBe(4);
    expect(quoteShoot({ style: 'classic', shots: 4, quality: 'pro' }).credits).toBe(8);
    expect(quoteShoot({ style: 'classic', shots: 1, quality: '4k' }).credits).toBe(4);
  });

  it('honours 6 shots for classic and minimal only, clamping the rest to 4', () => {
    for (const style of SHOOT_STYLES) {
      const quote = quoteShoot({ style, shots: 6, quality: 'pro' });
      const honoured = style === 'classic' || style === 'minimal';
      expect(quote).toMatchObject({
        shots: honoured ? 6 : 4,
        clamped: !honoured,
        credits: honoured ? 12 : 8,
      });
      expect(quote.breakdown).toEqual({
        unit: 'shot',
        units: quote.shots,
        perUnit: 2,
        base: quote.credits,
        adjustments: [],
        credits: quote.credits,
      });
    }
  });
});

describe('quoteVideo', () => {
  it('matches the description worked examples', () => {
    expect(quoteVideo({ duration: 10, resolution: '720p', mode: 'product_only' })).toBe(34);
    expect(quoteVideo({ duration: 10, resolution: '720p', mode: 'with_model' })).toBe(40);
  });

  it('rounds up fractional credits without floating-point drift', () => {
    expect(quoteVideo({ duration: 5, resolution: '1080p', mode: 'product_only' })).toBe(39);
    expect(quoteVideo({ duration: 5, resolution: '480p', mode: 'product_only' })).toBe(9);
    expect(quoteVideo({ duration: 15, resolution: '480p', mode: 'product_only' })).toBe(26);
    expect(quoteVideo({ duration: 15, resolution: '1080p', mode: 'with_model' })).toBe(135);
  });
});

describe('quoteBatch', () => {
  it('sums a shoot and a video per product and sets the total against the balance', () => {
    const quote = quoteBatch(
      ['cap', 'mug', 'tote'],
      { style: 'luxury', shots: 6, quality: 'standard' },
      { duration: 10, resolution: '720p', mode: 'product_only' },
      100,
    );
    expect(quote.products.map((row) => row.credits)).toEqual([38, 38, 38]);
    expect(quote.products[0]!.shoot.clamped).toBe(true);
    expect(quote.credits).toBe(114);
    expect(quote.shortfall).toBe(14);
  });

  it('has no video column and no shortfall when none applies', () => {
    const quote = quoteBatch(['cap'], { style: 'classic', shots: 4, quality: 'standard' }, null, null);
    expect(quote).toMatchObject({ credits: 4, balance: null, shortfall: null });
    expect(quote.products[0]!.videoCredits).toBeNull();
  });
});
