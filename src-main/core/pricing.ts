import type { PriceBreakdown } from '../shared/price.ts';
import type {
  Mode,
  Quality,
  ShootStyle,
  ShotCount,
  VideoDuration,
  VideoResolution,
} from '../shared/vocabulary.ts';
import {
  CLAMPED_SHOTS,
  CREDITS_PER_IMAGE,
  SIX_SHOT_STYLES,
  VIDEO_CREDITS_PER_SECOND,
  VIDEO_MODE_PERCENT,
} from './catalog.ts';

// Exact credits, from the service's published rules. A preview made here must equal, to the credit,
// what the service then charges: integers only, no floating point on money. Each price comes with its
// breakdown (shared/price.ts), so that front ends say how it adds up without working it out again.

export interface ShootPriceInput {
  style: ShootStyle;
  shots: ShotCount;
  quality: Quality;
}

export interface ShootQuote {
  /** The shots the service will actually make: a requested 6 is clamped to 4 outside classic and minimal. */
  shots: number;
  /** True when the requested shots were clamped, so the UI can say why the count changed. */
  clamped: boolean;
  credits: number;
  breakdown: PriceBreakdown;
}

export interface VideoPriceInput {
  duration: VideoDuration;
  resolution: VideoResolution;
  mode: Mode;
}

export function quoteShoot(input: ShootPriceInput): ShootQuote {
  const clamped = input.shots === 6 && !SIX_SHOT_STYLES.includes(input.style);
  const shots = clamped ? CLAMPED_SHOTS : input.shots;
  const perUnit = CREDITS_PER_IMAGE[input.quality];
  const credits = shots * perUnit;
  return {
    shots,
    clamped,
    credits,
    breakdown: { unit: 'shot', units: shots, perUnit, base: credits, adjustments: [], credits },
  };
}

/**
 * ceil(credits per second x duration x mode multiplier), as the base (seconds x credits a second) and the
 * mode's reduction: the total rounds up, so the reduction is the base less that total (rounded down).
 */
export function videoPrice(input: VideoPriceInput): PriceBreakdown {
  const perUnit = VIDEO_CREDITS_PER_SECOND[input.resolution];
  const base = perUnit * input.duration;
  const percent = VIDEO_MODE_PERCENT[input.mode];
  const credits = Math.ceil((base * percent) / 100);
  const adjustments: PriceBreakdown['adjustments'] =
    percent < 100
      ? [
          {
            reason: 'product_only',
            percentOff: 100 - percent,
            credits: credits - base,
            rounded: (base * percent) % 100 !== 0,
          },
        ]
      : [];
  return { unit: 'second', units: input.duration, perUnit, base, adjustments, credits };
}

export function quoteVideo(input: VideoPriceInput): number {
  return videoPrice(input).credits;
}

export interface ProductQuote {
  product: string;
  shoot: ShootQuote;
  /** Null when the batch has no video step. */
  videoCredits: number | null;
  credits: number;
}

export interface BatchQuote {
  products: ProductQuote[];
  /** One product's shoot and video, each product's alike. */
  shoot: ShootQuote;
  video: PriceBreakdown | null;
  credits: number;
  /** The balance the quote is set against, when known. */
  balance: number | null;
  /** Credits missing to run the whole batch (0 when the balance covers it, null when unknown). */
  shortfall: number | null;
}

/** The cost of a batch: a shoot per product and, when asked, a video per product from its shots. */
export function quoteBatch(
  products: readonly string[],
  shoot: ShootPriceInput,
  video: VideoPriceInput | null,
  balance: number | null,
): BatchQuote {
  const shootQuote = quoteShoot(shoot);
  const videoBreakdown = video ? videoPrice(video) : null;
  const videoCredits = videoBreakdown?.credits ?? null;
  const rows = products.map((product) => ({
    product,
    shoot: shootQuote,
    videoCredits,
    credits: shootQuote.credits + (videoCredits ?? 0),
  }));
  const credits = rows.reduce((sum, row) => sum + row.credits, 0);
  return {
    products: rows,
    shoot: shootQuote,
    video: videoBreakdown,
    credits,
    balance,
    shortfall: balance === null ? null : Math.max(0, credits - balance),
  };
}
