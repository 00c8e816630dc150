import type {
  Mode,
  Quality,
  ShootAspectRatio,
  ShootStyle,
  ShotCount,
  VideoDuration,
  VideoResolution,
} from '../shared/vocabulary.ts';

// The service's prices and rules over its catalog, as its description states them
// (../shared/api/ad-service-api.md). The catalog's sets themselves are declared in shared/vocabulary.ts and
// their words in shared/words.ts; what the description leaves open is guessed in core/api/guesses.ts, never here.

export const SIX_SHOT_STYLES: readonly ShootStyle[] = ['classic', 'minimal'];
/** What a requested 6 becomes in the other styles (`shots_adjusted: true`). */
export const CLAMPED_SHOTS = 4;

/**
 * Each style's look in a picker: its backdrop's colours as a CSS background (our own rendering of the
 * style, like the sandbox's; the service shows none), so a new style is one entry here, not a list in the UI.
 */
export const STYLE_SWATCHES: Record<ShootStyle, string> = {
  classic: 'linear-gradient(#f5f5f3, #dcdcd8)',
  minimal: 'linear-gradient(#ffffff, #eeeeee)',
  luxury: 'linear-gradient(135deg, #1d1a16, #6b5430)',
  loud_luxury: 'linear-gradient(135deg, #5b0f2e, #d4a017)',
  magazine: 'linear-gradient(90deg, #e84a3c 50%, #f4e9dc 50%)',
  editorial: 'linear-gradient(#c9c2b8, #8d857a)',
  avant_garde: 'conic-gradient(#3a0ca3, #f72585, #4cc9f0, #3a0ca3)',
  element: 'radial-gradient(circle at 30% 30%, #9ad1d4, #1b4965)',
  influencer: 'linear-gradient(135deg, #ffd6e0, #c1e7ff)',
  lifestyle: 'linear-gradient(#f3e3c7, #a47551)',
};

export const CREDITS_PER_IMAGE: Record<Quality, number> = { standard: 1, pro: 2, '4k': 4 };

export const VIDEO_MAX_IMAGES: Record<VideoDuration, number> = { 5: 1, 10: 3, 15: 4 };

export const VIDEO_CREDITS_PER_SECOND: Record<VideoResolution, number> = { '480p': 2, '720p': 4, '1080p': 9 };
/** The mode multiplier in percent, so that prices stay exact integer arithmetic. */
export const VIDEO_MODE_PERCENT: Record<Mode, number> = { product_only: 85, with_model: 100 };

/**
 * Where a new batch starts. Shots, quality and mode are the service's own defaults; the style and the
 * 10 s 720p video are Adbatch's choice (the description has no default for them).
 */
export const NEW_BATCH_DEFAULTS = {
  shoot: { style: 'classic', shots: 4, quality: 'standard', aspectRatio: '1:1', mode: 'product_only' },
  video: { duration: 10, resolution: '720p', mode: 'product_only' },
} as const satisfies {
  shoot: { style: ShootStyle; shots: ShotCount; quality: Quality; aspectRatio: ShootAspectRatio; mode: Mode };
  video: { duration: VideoDuration; resolution: VideoResolution; mode: Mode };
};
