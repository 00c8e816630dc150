// The service's published rules (../shared/api/ad-service-api.md), as the sandbox enforces them.
// Kept apart from core/pricing.ts on purpose: the sandbox is the reference the client is tested against,
// so the two must not share code that could be wrong in the same way.

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

/** Styles that honour a requested 6 shots; every other style is clamped to 4. */
export const SIX_SHOT_STYLES: readonly ShootStyle[] = ['classic', 'minimal'];

/** Sandbox choice: the description says background_color is "supported for studio styles" without naming them. */
export const STUDIO_STYLES: readonly ShootStyle[] = ['classic', 'minimal', 'luxury', 'loud_luxury'];

export const MODES = ['product_only', 'with_model'] as const;
export type Mode = (typeof MODES)[number];

export const SHOT_COUNTS = [1, 4, 6] as const;

export const QUALITIES = ['standard', 'pro', '4k'] as const;
export type Quality = (typeof QUALITIES)[number];
export const CREDITS_PER_IMAGE: Record<Quality, number> = { standard: 1, pro: 2, '4k': 4 };
/** Long side of a rendered shot: standard about 1K, pro 2K, 4k 4K. */
export const LONG_SIDE_PX: Record<Quality, number> = { standard: 1024, pro: 2048, '4k': 4096 };

/** Sandbox choice: the complete set of shoot aspect ratios is not shown; these are accepted. */
export const SHOOT_ASPECT_RATIOS = [
  '1:1',
  '4:5',
  '5:4',
  '3:4',
  '4:3',
  '2:3',
  '3:2',
  '9:16',
  '16:9',
  '21:9',
] as const;

export const VIDEO_DURATIONS = [5, 10, 15] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];
export const VIDEO_MAX_IMAGES: Record<VideoDuration, number> = { 5: 1, 10: 3, 15: 4 };
export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];
export const VIDEO_CREDITS_PER_SECOND: Record<VideoResolution, number> = { '480p': 2, '720p': 4, '1080p': 9 };
export const VIDEO_ASPECT_RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];
/** Mode multiplier in hundredths, so the price stays integer arithmetic: product_only is 15% cheaper. */
const VIDEO_MODE_PERCENT: Record<Mode, number> = { product_only: 85, with_model: 100 };

export function effectiveShots(style: ShootStyle, requested: number): { shots: number; adjusted: boolean } {
  if (requested === 6 && !SIX_SHOT_STYLES.includes(style)) return { shots: 4, adjusted: true };
  return { shots: requested, adjusted: false };
}

export function shootPrice(shots: number, quality: Quality): number {
  return shots * CREDITS_PER_IMAGE[quality];
}

/** ceil(credits per second x duration x multiplier), computed exactly in integers. */
export function videoPrice(duration: VideoDuration, resolution: VideoResolution, mode: Mode): number {
  const hundredths = VIDEO_CREDITS_PER_SECOND[resolution] * duration * VIDEO_MODE_PERCENT[mode];
  return Math.ceil(hundredths / 100);
}

export const PLAN_BRAND_QUOTA = { partner: 3, agency_pro: 10, enterprise: Number.POSITIVE_INFINITY } as const;
export type AgencyPlan = keyof typeof PLAN_BRAND_QUOTA;

/** A fixed service prefix, an underscore, then 64 hexadecimal characters. */
export const API_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_[0-9a-fA-F]{64}$/;
/** The prefix the sandbox gives the keys it makes itself. */
export const SANDBOX_KEY_PREFIX = 'adsk';

export function parseAspectRatio(ratio: string): { width: number; height: number } {
  const [width, height] = ratio.split(':').map(Number);
  if (!width || !height) throw new Error(`not an aspect ratio: ${ratio}`);
  return { width, height };
}
