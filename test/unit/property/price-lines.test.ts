import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteBatch } from '../../../src-main/core/pricing.ts';
import { priceLines, priceWords } from '../../../src-main/shared/money-words.ts';
import {
  MODES,
  QUALITIES,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../../src-main/shared/vocabulary.ts';
import { check } from '../../support/fuzz.ts';

// Issue 31 point 5: for any valid order, the price lines every front end shows add up, on screen, to what
// the pricing charges, and that is the service's own rule (../shared/api/ad-service-api.md), restated here
// from the contract rather than from core's catalog: images x 1, 2 or 4 credits; a video
// ceil(credits a second (2, 4, 9) x seconds x 0.85 without a model), in integers.

const PER_IMAGE = { standard: 1, pro: 2, '4k': 4 } as const;
const PER_SECOND = { '480p': 2, '720p': 4, '1080p': 9 } as const;

const order = fc.record({
  products: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 }),
  shoot: fc.record({
    style: fc.constantFrom(...SHOOT_STYLES),
    shots: fc.constantFrom(...SHOT_COUNTS),
    quality: fc.constantFrom(...QUALITIES),
  }),
  video: fc.option(
    fc.record({
      duration: fc.constantFrom(...VIDEO_DURATIONS),
      resolution: fc.constantFrom(...VIDEO_RESOLUTIONS),
      mode: fc.constantFrom(...MODES),
    }),
  ),
});

/** The arithmetic a price's words show: "A = B - C (…) = T credits" read back as numbers. */
function shownSum(words: string): { first: number; steps: number[]; total: number } {
  const [, rate, rest] = /^(.*?) = (.*) credits?$/.exec(words) ?? [];
  const [units, perUnit] = [...(rate ?? '').matchAll(/(\d+)/g)].map((match) => Number(match[1]));
  const parts = (rest ?? '').split(' = ');
  const total = Number(parts.at(-1));
  if (parts.length === 1) return { first: (units ?? 0) * (perUnit ?? 0), steps: [], total };
  const first = Number(/^\d+/.exec(parts[0] ?? '')?.[0]);
  expect(first).toBe((units ?? 0) * (perUnit ?? 0));
  const steps = [...(parts[0] ?? '').matchAll(/([-+]) (\d+) \(/g)].map(
    (match) => (match[1] === '-' ? -1 : 1) * Number(match[2]),
  );
  return { first, steps, total };
}

describe('price lines', () => {
  it('add up on screen to the credits charged, by the contract’s rule, for random orders', () => {
    check(
      fc.property(order, ({ products, shoot, video }) => {
        const quote = quoteBatch(products, shoot, video, null);
        const shots = shoot.shots === 6 && !['classic', 'minimal'].includes(shoot.style) ? 4 : shoot.shots;
        const shootCredits = shots * PER_IMAGE[shoot.quality];
        const videoCredits = video
          ? Math.floor(
              (PER_SECOND[video.resolution] * video.duration * (video.mode === 'product_only' ? 85 : 100) +
                99) /
                100,
            )
          : 0;
        const prices = [
          { price: quote.shoot.breakdown, expected: shootCredits },
          ...(quote.video ? [{ price: quote.video, expected: videoCredits }] : []),
        ];
        for (const { price, expected } of prices) {
          const lines = priceLines(price);
          expect(lines.every((line) => Number.isInteger(line.credits))).toBe(true);
          expect(lines.reduce((sum, line) => sum + line.credits, 0)).toBe(expected);
          const shown = shownSum(priceWords(price));
          expect(shown.first + shown.steps.reduce((sum, step) => sum + step, 0)).toBe(shown.total);
          expect(shown.total).toBe(expected);
        }
        expect(quote.video === null).toBe(video === null);
        expect(quote.credits).toBe(products.length * (shootCredits + videoCredits));
      }),
    );
  });
});

describe('priceWords', () => {
  it('says the contract’s check, 10 s at 720p without a model, as a sum', () => {
    const { video } = quoteBatch(
      ['cap'],
      { style: 'classic', shots: 4, quality: 'standard' },
      { duration: 10, resolution: '720p', mode: 'product_only' },
      null,
    );
    expect(priceWords(video!)).toBe(
      '10 s x 4 credits a second = 40 - 6 (15 % off without a model) = 34 credits',
    );
  });

  it('says a reduction the rounding up leaves between two credits is rounded down', () => {
    const { video } = quoteBatch(
      ['cap'],
      { style: 'classic', shots: 4, quality: 'standard' },
      { duration: 5, resolution: '1080p', mode: 'product_only' },
      null,
    );
    expect(priceWords(video!)).toBe(
      '5 s x 9 credits a second = 45 - 6 (15 % off without a model, rounded down to whole credits) = 39 credits',
    );
  });

  it('says a price nothing adjusts as its rate alone: with a model, a shoot', () => {
    const { video, shoot } = quoteBatch(
      ['cap'],
      { style: 'luxury', shots: 6, quality: 'pro' },
      { duration: 10, resolution: '720p', mode: 'with_model' },
      null,
    );
    expect(priceWords(video!)).toBe('10 s x 4 credits a second = 40 credits');
    expect(priceWords(shoot.breakdown)).toBe('4 shots x 2 credits a shot = 8 credits');
  });
});
