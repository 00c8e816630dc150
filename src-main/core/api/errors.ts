// Typed errors of the service client. The engine decides what to do from the class (and `maybeSent`),
// the designer reads `message`. `maybeSent` is the one fact that guards against paying twice: true when
// the request may have reached the service and had its effect (for a POST: a job created and charged),
// so a create must not be re-sent blindly (DESIGN: never re-send a POST whose outcome is unknown).

export type ApiErrorKind =
  | 'unauthorized'
  | 'validation'
  | 'insufficient_credits'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'malformed_response';

export interface ApiErrorDetails {
  /** The HTTP status answered, or null when no answer arrived. */
  status: number | null;
  /** The service's `error.code` when it sent one; for a NetworkError, the system error code (`ECONNRESET`). */
  code?: string | null;
  /** The service's `error.message`, scrubbed of anything key-shaped. */
  serviceMessage?: string | null;
  maybeSent: boolean;
  /** `METHOD /path` of the call, for logs (never the key, never a query string). */
  operation: string;
  cause?: unknown;
}

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly serviceMessage: string | null;
  readonly maybeSent: boolean;
  readonly operation: string;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code ?? null;
    this.serviceMessage = details.serviceMessage ?? null;
    this.maybeSent = details.maybeSent;
    this.operation = details.operation;
  }
}

/** 401: the key is missing, mistyped or revoked. */
export class UnauthorizedError extends ApiError {
  readonly kind = 'unauthorized';
}

/** 400 (and 413, 415, 422): the service refused the request as sent; nothing was created. */
export class ValidationError extends ApiError {
  readonly kind = 'validation';
}

/** 402: not enough credits to reserve for the job; nothing was created or charged. */
export class InsufficientCreditsError extends ApiError {
  readonly kind = 'insufficient_credits';
}

/** 403: the key may not do this (e.g. a personal key on the agency-only brand endpoints). */
export class ForbiddenError extends ApiError {
  readonly kind = 'forbidden';
}

/** 404: unknown identifier (or one that belongs to another account). */
export class NotFoundError extends ApiError {
  readonly kind = 'not_found';
}

/** 409: the request clashes with existing state (e.g. a brand name already taken). */
export class ConflictError extends ApiError {
  readonly kind = 'conflict';
}

/** 429: over the key's request budget; nothing was done. */
export class RateLimitedError extends ApiError {
  readonly kind = 'rate_limited';
  /** How long the service asked us to wait (from `Retry-After`), or null when it did not say. */
  readonly retryAfterMs: number | null;

  constructor(message: string, details: ApiErrorDetails & { retryAfterMs: number | null }) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 5xx, or any status the client does not expect. The request may have been handled. */
export class ServerError extends ApiError {
  readonly kind = 'server';
}

/** No (complete) answer: refused, unreachable, reset, closed or timed out. */
export class NetworkError extends ApiError {
  readonly kind = 'network';
  /** True when the client gave up waiting (its own timeout). */
  readonly timedOut: boolean;
  /** What went wrong with the connection, without the call it broke ("Could not read the balance."): where the
   * call is plain from the context (adding an account), this alone says it once. */
  readonly reason: string;

  constructor(message: string, details: ApiErrorDetails & { timedOut?: boolean; reason?: string }) {
    super(message, details);
    this.timedOut = details.timedOut ?? false;
    this.reason = details.reason ?? message;
  }
}

/** A success status whose body is not the expected JSON: the service acted, but we cannot read what it did. */
export class MalformedResponseError extends ApiError {
  readonly kind = 'malformed_response';
  /** The start of the body, for a log (scrubbed of keys). */
  readonly bodyExcerpt: string;

  constructor(message: string, details: ApiErrorDetails & { bodyExcerpt: string }) {
    super(message, details);
    this.bodyExcerpt = details.bodyExcerpt;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
