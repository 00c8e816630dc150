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

export const MODES = ['product_only', 'with_model'] as const;
export type Mode = (typeof MODES)[number];

export const SHOT_COUNTS = [1, 4, 6] as const;
export type ShotCount = (typeof SHOT_COUNTS)[number];

export const QUALITIES = ['standard', 'pro', '4k'] as const;
export type Quality = (typeof QUALITIES)[number];
export const CREDITS_PER_IMAGE: Record<Quality, number> = { standard: 1, pro: 2, '4k': 4 };

/** The description lists these as examples; the complete set is not shown. */
export const SHOOT_ASPECT_RATIOS = ['1:1', '4:5', '9:16', '16:9'] as const;

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
