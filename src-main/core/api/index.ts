// The public surface of the service client; everything else in this folder is an implementation detail.
export { DEFAULT_TIMEOUTS_MS, ServiceClient, type ServiceClientOptions } from './client.ts';
export {
  ApiError,
  type ApiErrorKind,
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  isApiError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from './errors.ts';
export {
  API_KEY_PATTERN,
  KNOWN_ERROR_CODES,
  KNOWN_IMAGE_STATUSES,
  KNOWN_SHOOT_STATUSES,
  KNOWN_VIDEO_STATUSES,
  looksLikeApiKey,
  maskApiKey,
  redactApiKeys,
  USAGE_QUERY_PARAMS,
} from './guesses.ts';
export { apiKeyId } from './key-id.ts';
export { parseRetryAfter } from './retry-after.ts';
export { phaseOf } from './schemas.ts';
export type * from './types.ts';
