import type { Quality } from '../../shared/vocabulary.ts';

// Every guess about what the service's description (shared/api/ad-service-api.md) leaves "not shown",
// kept in this one file so that when the real service answers differently there is one place to fix.
// Each constant names the gap it fills. The rest of the client treats these as hints, never as a
// closed list: an unknown status still parses, an unknown error code still maps by HTTP status.

/**
 * GUESS: the names of the GET /v1/usage query parameters ("Names of the usage query parameters: not
 * shown"). The meanings are documented (period start, period end, one client brand); the names are ours.
 */
export const USAGE_QUERY_PARAMS = { from: 'from', to: 'to', brandId: 'brand_id' } as const;

/**
 * GUESS: the error codes we recognise. Only `unauthorized` (401) and `rate_limited` (429) are documented;
 * "Full list of codes: not shown". Codes only refine a message: the typed error is chosen by HTTP status.
 */
export const KNOWN_ERROR_CODES = {
  unauthorized: 'unauthorized',
  rateLimited: 'rate_limited',
  missingField: 'missing_field',
  invalidField: 'invalid_field',
  invalidJson: 'invalid_json',
  insufficientCredits: 'insufficient_credits',
  agencyOnly: 'agency_only',
  brandQuotaExceeded: 'brand_quota_exceeded',
  brandExists: 'brand_exists',
  forbidden: 'forbidden',
  notFound: 'not_found',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  internalError: 'internal_error',
} as const;

/**
 * The shoot statuses we know. The list itself is documented, but which ones are ever reported (e.g.
 * `analyzed`) and how they follow each other is not shown, so any other value still means "running".
 */
export const KNOWN_SHOOT_STATUSES = ['pending', 'analyzing', 'analyzed', 'generating', 'completed', 'failed'];

/** GUESS: video statuses beyond `pending` and `completed` ("not shown"); anything else means "running". */
export const KNOWN_VIDEO_STATUSES = ['pending', 'generating', 'completed', 'failed'];

/** GUESS: per-image `status` values ("not shown"); informative only, never relied on. */
export const KNOWN_IMAGE_STATUSES = ['pending', 'completed', 'failed'];

/** GUESS: the `balance` value of an agency key is documented (`pool`); a personal key's is not shown. */
export const POOL_BALANCE = 'pool';

/**
 * GUESS: the key format. Documented as "a fixed service prefix and an underscore, then 64 hexadecimal
 * characters"; the prefix itself is not shown, so any alphanumeric prefix (with inner underscores) passes.
 */
export const API_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_[0-9a-fA-F]{64}$/;

/** Finds anything key-shaped inside a text, so it can be scrubbed from messages before they are shown. */
const KEY_IN_TEXT = /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_[0-9a-fA-F]{64}/g;

/** A quick check for forms: a key that fails it is almost certainly mistyped or truncated. */
export function looksLikeApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key.trim());
}

/** `…a1b2`: the last 4 characters only, enough to tell keys apart in logs and settings, useless to a thief. */
export function maskApiKey(key: string): string {
  const trimmed = key.trim();
  // Revealing 4 characters of a very short string would reveal most of it.
  return trimmed.length >= 8 ? `…${trimmed.slice(-4)}` : '…';
}

/** Replaces anything key-shaped (and the given key, whatever its shape) with its mask. */
export function redactApiKeys(text: string, key?: string): string {
  let result = text;
  if (key && key.trim().length >= 8) result = result.split(key.trim()).join(maskApiKey(key));
  return result.replace(KEY_IN_TEXT, (found) => maskApiKey(found));
}

/**
 * The long side of a shot at each quality: the description says "2K" for pro and "4K" for 4k; standard's
 * 1024 is what the service has delivered. The export's pre-flight names the quality that would have been
 * enough for a channel from these (core/export/plan-checks.ts).
 */
export const QUALITY_LONG_SIDE: Readonly<Record<Quality, number>> = { standard: 1024, pro: 2048, '4k': 4096 };
