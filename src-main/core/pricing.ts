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
// what the service then charges: integers only, no floating point on money.

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
}

export interface VideoPriceInput {
  duration: VideoDuration;
  resolution: VideoResolution;
  mode: Mode;
}

export function quoteShoot(input: ShootPriceInput): ShootQuote {
  const clamped = input.shots === 6 && !SIX_SHOT_STYLES.includes(input.style);
  const shots = clamped ? CLAMPED_SHOTS : input.shots;
  return { shots, clamped, credits: shots * CREDITS_PER_IMAGE[input.quality] };
}

/** ceil(credits per second x duration x mode multiplier). */
export function quoteVideo(input: VideoPriceInput): number {
  const hundredths =
    VIDEO_CREDITS_PER_SECOND[input.resolution] * input.duration * VIDEO_MODE_PERCENT[input.mode];
  return Math.ceil(hundredths / 100);
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
  const videoCredits = video ? quoteVideo(video) : null;
  const rows = products.map((product) => ({
    product,
    shoot: shootQuote,
    videoCredits,
    credits: shootQuote.credits + (videoCredits ?? 0),
  }));
  const credits = rows.reduce((sum, row) => sum + row.credits, 0);
  return {
    products: rows,
    credits,
    balance,
    shortfall: balance === null ? null : Math.max(0, credits - balance),
  };
}
