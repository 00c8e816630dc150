import { USAGE_QUERY_PARAMS } from './guesses.ts';
import type { ShootBody, UsageQuery, VideoBody } from './types.ts';

// camelCase requests to the service's snake_case bodies. Absent options are left out rather than sent as
// null, so the service applies its own documented defaults.

function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

export function shootRequest(body: ShootBody): Record<string, unknown> {
  return compact({
    product_image_urls: body.productImageUrls,
    style: body.style,
    mode: body.mode,
    model_url: body.modelUrl,
    shots: body.shots,
    aspect_ratio: body.aspectRatio,
    quality: body.quality,
    background_color: body.backgroundColor,
    callback_url: body.callbackUrl,
  });
}

export function videoRequest(body: VideoBody): Record<string, unknown> {
  return compact({
    image_urls: body.imageUrls,
    duration: body.duration,
    resolution: body.resolution,
    mode: body.mode,
    aspect_ratio: body.aspectRatio,
    logo_url: body.logoUrl,
    music: body.music,
    note: body.note,
    callback_url: body.callbackUrl,
  });
}

/**
 * An instant for the query string: a Date as ISO 8601 (null when invalid), a string as given (the service
 * judges it), undefined when there is nothing to send.
 */
function instant(value: Date | string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  return Number.isNaN(value.getTime()) ? null : value.toISOString();
}

/** The usage query string, or the name of the first unreadable field. */
export function usageSearchParams(query: UsageQuery): URLSearchParams | { invalid: 'from' | 'to' } {
  const params = new URLSearchParams();
  for (const field of ['from', 'to'] as const) {
    const text = instant(query[field]);
    if (text === undefined) continue;
    if (text === null) return { invalid: field };
    params.set(USAGE_QUERY_PARAMS[field], text);
  }
  if (query.brandId?.trim()) params.set(USAGE_QUERY_PARAMS.brandId, query.brandId.trim());
  return params;
}
