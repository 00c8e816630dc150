import { HttpError } from './http.ts';
import {
  MODES,
  type Mode,
  QUALITIES,
  type Quality,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  type ShootStyle,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_MAX_IMAGES,
  VIDEO_RESOLUTIONS,
  type VideoAspectRatio,
  type VideoDuration,
  type VideoResolution,
} from './rules.ts';
import type { ShootRequest, VideoRequest } from './state.ts';

// Every rule answers its own 400: `missing_field` for an absent required field, `invalid_field` for a
// present one that breaks a rule, and a message that names the field. Unknown fields are ignored.

type Body = Record<string, unknown>;

function missing(field: string): HttpError {
  return new HttpError(400, 'missing_field', `${field} is required.`);
}

function invalid(field: string, rule: string): HttpError {
  return new HttpError(400, 'invalid_field', `${field} ${rule}.`);
}

function asBody(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_json', 'The request body must be a JSON object.');
  }
  return value as Body;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function urlList(body: Body, field: string, max: number, maxReason: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) throw missing(field);
  if (!Array.isArray(value)) throw invalid(field, 'must be an array of http(s) URLs');
  if (value.length === 0) throw invalid(field, 'must hold at least 1 URL');
  if (value.length > max) throw invalid(field, maxReason);
  value.forEach((entry, index) => {
    if (!isHttpUrl(entry)) throw invalid(`${field}[${index}]`, 'must be a public http(s) URL');
  });
  return value as string[];
}

function optionalUrl(body: Body, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (!isHttpUrl(value)) throw invalid(field, 'must be a public http(s) URL');
  return value;
}

function oneOf<T extends string | number>(
  body: Body,
  field: string,
  allowed: readonly T[],
  fallback: T | undefined,
): T {
  const value = body[field];
  if (value === undefined || value === null) {
    if (fallback === undefined) throw missing(field);
    return fallback;
  }
  if (!allowed.includes(value as T)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

function optionalType(body: Body, field: string, type: 'boolean' | 'string', maxLength?: number): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (typeof value !== type) throw invalid(field, `must be a ${type}`);
  if (maxLength !== undefined && (value as string).length > maxLength) {
    throw invalid(field, `must be at most ${maxLength} characters`);
  }
}

/** Sandbox choice: background_color is a hex colour, `#rgb` or `#rrggbb`. */
const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

export function validateShoot(input: unknown): ShootRequest {
  const body = asBody(input);
  const productImageUrls = urlList(body, 'product_image_urls', 8, 'must hold at most 8 URLs');
  const style = oneOf<ShootStyle>(body, 'style', SHOOT_STYLES, undefined);
  const mode = oneOf<Mode>(body, 'mode', MODES, 'product_only');
  const modelUrl = optionalUrl(body, 'model_url');
  if (mode === 'with_model' && !modelUrl) {
    throw new HttpError(400, 'missing_field', 'model_url is required when mode is with_model.');
  }
  if (mode === 'product_only' && modelUrl)
    throw invalid('model_url', 'is only allowed when mode is with_model');
  const requestedShots = oneOf<number>(body, 'shots', SHOT_COUNTS, 4);
  const aspectRatio = oneOf<string>(body, 'aspect_ratio', SHOOT_ASPECT_RATIOS, '1:1');
  const quality = oneOf<Quality>(body, 'quality', QUALITIES, 'standard');
  const backgroundColor = body.background_color ?? null;
  if (
    backgroundColor !== null &&
    (typeof backgroundColor !== 'string' || !HEX_COLOUR.test(backgroundColor))
  ) {
    throw invalid('background_color', 'must be a hex colour such as #f4efe6');
  }
  optionalUrl(body, 'callback_url');
  return {
    productImageUrls,
    style,
    mode,
    modelUrl,
    requestedShots,
    aspectRatio,
    quality,
    backgroundColor: backgroundColor as string | null,
  };
}

export function validateVideo(input: unknown): VideoRequest {
  const body = asBody(input);
  if (body.image_urls === undefined || body.image_urls === null) throw missing('image_urls');
  const duration = oneOf<VideoDuration>(body, 'duration', VIDEO_DURATIONS, undefined);
  const max = VIDEO_MAX_IMAGES[duration];
  const imageUrls = urlList(body, 'image_urls', max, `allows at most ${max} for a ${duration} s video`);
  const resolution = oneOf<VideoResolution>(body, 'resolution', VIDEO_RESOLUTIONS, undefined);
  const mode = oneOf<Mode>(body, 'mode', MODES, 'product_only');
  const aspectRatio =
    body.aspect_ratio === undefined || body.aspect_ratio === null
      ? null
      : oneOf<VideoAspectRatio>(body, 'aspect_ratio', VIDEO_ASPECT_RATIOS, undefined);
  const logoUrl = optionalUrl(body, 'logo_url');
  optionalType(body, 'music', 'boolean');
  const music = body.music !== false;
  optionalType(body, 'note', 'string', 2000);
  optionalUrl(body, 'callback_url');
  return { imageUrls, duration, resolution, mode, aspectRatio, logoUrl, music };
}

export function validateBrandName(input: unknown): string {
  const body = asBody(input);
  const name = body.name;
  if (name === undefined || name === null) throw missing('name');
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name', 'must be a non-empty string');
  if (name.trim().length > 100) throw invalid('name', 'must be at most 100 characters');
  return name.trim();
}
