import { type CallContext, maybeCreatedHint, operationOf, sentence } from './call-context.ts';
import {
  type ApiError,
  type ApiErrorDetails,
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  MalformedResponseError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from './errors.ts';
import { KNOWN_ERROR_CODES, redactApiKeys } from './guesses.ts';
import { parseRetryAfter } from './retry-after.ts';

// Turns a non-2xx answer into a typed error. The HTTP status decides the class; the service's envelope
// (`{error: {code, message}}`) only adds detail, and is read leniently because a proxy or gateway in front
// of the service may answer with HTML, plain text or another JSON shape.

const MAX_MESSAGE = 500;

export interface ErrorEnvelope {
  code: string | null;
  message: string | null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function shorten(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/** Reads `{error: {code, message}}`, and the common variants of it, from any body. */
export function readErrorEnvelope(body: string, apiKey?: string): ErrorEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // A short plain-text answer ("Bad Gateway") is still worth showing; an HTML error page is not.
    const plain = body.trim();
    const usable = plain && plain.length <= 200 && !plain.startsWith('<');
    return { code: null, message: usable ? redactApiKeys(plain, apiKey) : null };
  }
  if (typeof parsed !== 'object' || parsed === null) return { code: null, message: null };
  const top = parsed as Record<string, unknown>;
  const inner =
    typeof top.error === 'object' && top.error !== null ? (top.error as Record<string, unknown>) : null;
  // `{error: "..."}` is either a code (OAuth style, `invalid_request`) or a sentence: a code has no spaces.
  const bare = inner ? null : str(top.error);
  const code = str(inner?.code) ?? str(top.code) ?? (bare && /^[\w.-]+$/.test(bare) ? bare : null);
  const message = str(inner?.message) ?? str(top.message) ?? str(top.detail) ?? bare;
  return {
    code: code ? shorten(code) : null,
    message: message ? shorten(redactApiKeys(message, apiKey)) : null,
  };
}

function said(message: string | null): string {
  return message ? ` The service said: ${sentence(message)}` : '';
}

function forbiddenHint(code: string | null): string {
  if (code === KNOWN_ERROR_CODES.agencyOnly) return ' It needs an agency key.';
  if (code === KNOWN_ERROR_CODES.brandQuotaExceeded)
    return " The agency's plan has no room for another brand.";
  return '';
}

function validationExplanation(status: number): string {
  if (status === 413) return 'The request was too large for the service.';
  if (status === 415) return "The service did not accept the request's format.";
  return 'The service rejected the request as invalid; nothing was created.';
}

export interface FailedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The typed error for a non-2xx answer. */
export function errorFromResponse(
  answer: FailedAnswer,
  call: CallContext,
  apiKey: string,
  now: number = Date.now(),
): ApiError {
  const { status } = answer;
  const envelope = readErrorEnvelope(answer.body, apiKey);
  const prefix = `Could not ${call.action}.`;
  // A definitive 4xx means the service answered and did nothing; anything else leaves the outcome open.
  const definitive = status >= 400 && status < 500;
  const details: ApiErrorDetails = {
    status,
    code: envelope.code,
    serviceMessage: envelope.message,
    maybeSent: !definitive,
    operation: operationOf(call),
  };
  const tail = said(envelope.message);

  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return new ValidationError(`${prefix} ${validationExplanation(status)}${tail}`, details);
    case 401: {
      const which = call.maskedKey ? `the API key ${call.maskedKey}` : 'the request: no API key was given';
      return new UnauthorizedError(
        `${prefix} The service did not accept ${which}. Check that the key is complete and has not been revoked.${tail}`,
        details,
      );
    }
    case 402:
      return new InsufficientCreditsError(
        `${prefix} There are not enough credits for it; nothing was charged.${tail}`,
        details,
      );
    case 403:
      return new ForbiddenError(
        `${prefix} This API key is not allowed to do this.${forbiddenHint(envelope.code)}${tail}`,
        details,
      );
    case 404:
      return new NotFoundError(
        `${prefix} The service does not know it (it may belong to another account).${tail}`,
        details,
      );
    case 409:
      return new ConflictError(`${prefix} It clashes with something that already exists.${tail}`, details);
    case 429: {
      const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], now);
      const wait =
        retryAfterMs === null
          ? 'Slow down and try again shortly.'
          : `The service asks to wait ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
      return new RateLimitedError(`${prefix} Too many requests for this API key. ${wait}`, {
        ...details,
        retryAfterMs,
      });
    }
    default: {
      const what =
        status >= 500
          ? `The service had a problem (HTTP ${status}).`
          : `The service answered with an unexpected HTTP ${status}.`;
      return new ServerError(
        `${prefix} ${what}${tail}${details.maybeSent ? maybeCreatedHint(call) : ''}`,
        details,
      );
    }
  }
}

/** A 2xx whose body is not what the endpoint returns: the service acted, we cannot tell what it did. */
export function malformedResponse(
  status: number,
  body: string,
  reason: string,
  call: CallContext,
  apiKey: string,
  cause?: unknown,
): MalformedResponseError {
  return new MalformedResponseError(
    `Could not ${call.action}. The service answered (HTTP ${status}) but its reply could not be read: ${reason}.${maybeCreatedHint(call)}`,
    {
      status,
      maybeSent: true,
      operation: operationOf(call),
      bodyExcerpt: redactApiKeys(body.slice(0, 200), apiKey),
      cause,
    },
  );
}
