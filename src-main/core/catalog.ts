// The service's vocabulary and prices as its description states them (../shared/api/ad-service-api.md).
// What the description leaves open is guessed in core/api/guesses.ts, never here.

export const SHOOT_STYLES = [
  'classic',
  'minimal',
  'luxury',
  'loud_luxury',
  'magazine',
  'editorial',
  'avant_garde',
  'element',
  'influencer',
  'lifestyle',
] as const;
export type ShootStyle = (typeof SHOOT_STYLES)[number];
export const SIX_SHOT_STYLES: readonly ShootStyle[] = ['classic', 'minimal'];
/** What a requested 6 becomes in the other styles (`shots_adjusted: true`). */
export const CLAMPED_SHOTS = 4;
/** How people read the styles; the description names them by id only. */
export const STYLE_LABELS: Record<ShootStyle, string> = {
  classic: 'Classic',
  minimal: 'Minimal',
  luxury: 'Luxury',
  loud_luxury: 'Loud luxury',
  magazine: 'Magazine',
  editorial: 'Editorial',
  avant_garde: 'Avant-garde',
  element: 'Element',
  influencer: 'Influencer',
  lifestyle: 'Lifestyle',
};

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

export const MODES = ['product_only', 'with_model'] as const;
export type Mode = (typeof MODES)[number];
export const MODE_LABELS: Record<Mode, string> = { product_only: 'Product only', with_model: 'With a model' };

export const SHOT_COUNTS = [1, 4, 6] as const;
export type ShotCount = (typeof SHOT_COUNTS)[number];

export const QUALITIES = ['standard', 'pro', '4k'] as const;
export type Quality = (typeof QUALITIES)[number];
export const CREDITS_PER_IMAGE: Record<Quality, number> = { standard: 1, pro: 2, '4k': 4 };
export const QUALITY_LABELS: Record<Quality, string> = { standard: 'Standard', pro: 'Pro', '4k': '4K' };

/** The description lists these as examples; the complete set is not shown. */
export const SHOOT_ASPECT_RATIOS = ['1:1', '4:5', '9:16', '16:9'] as const;
export type ShootAspectRatio = (typeof SHOOT_ASPECT_RATIOS)[number];

export const VIDEO_DURATIONS = [5, 10, 15] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];
export const VIDEO_MAX_IMAGES: Record<VideoDuration, number> = { 5: 1, 10: 3, 15: 4 };

export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];
export const VIDEO_CREDITS_PER_SECOND: Record<VideoResolution, number> = { '480p': 2, '720p': 4, '1080p': 9 };
/** The mode multiplier in percent, so that prices stay exact integer arithmetic. */
export const VIDEO_MODE_PERCENT: Record<Mode, number> = { product_only: 85, with_model: 100 };

export const VIDEO_ASPECT_RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

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
