import { type CallContext, maybeCreatedHint, operationOf } from './call-context.ts';
import { NetworkError } from './errors.ts';

// Classifies a failure without an answer. What matters is whether any byte of the request could have left:
// only failures of the connect phase (refused, unknown host, unreachable, connect timeout) prove that the
// service never saw the request. Everything else (a reset, a closed socket, a timeout while waiting for
// the answer) may have happened after the service acted, so for a POST the job may exist and be charged.

/** Error codes that can only happen before the request was sent. */
const BEFORE_SENDING = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the address was not found',
  EAI_AGAIN: 'the address could not be looked up right now',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
};

function codeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/**
 * The codes that explain a failure: the error's own, else (for the AggregateError Node raises after trying
 * several addresses) those of every attempt, else its cause's.
 */
export function failureCodes(error: unknown, depth = 0): string[] {
  if (depth > 4 || typeof error !== 'object' || error === null) return [];
  const own = codeOf(error);
  if (own) return [own];
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.flatMap((inner: unknown) => failureCodes(inner, depth + 1));
  }
  return failureCodes((error as { cause?: unknown }).cause, depth + 1);
}

/** True only when the failure proves nothing was sent. */
export function failedBeforeSending(error: unknown): boolean {
  const codes = failureCodes(error);
  return codes.length > 0 && codes.every((code) => BEFORE_SENDING.has(code));
}

export function networkError(
  error: unknown,
  call: CallContext,
  host: string,
  timeout: { timedOut: boolean; ms: number },
): NetworkError {
  const operation = operationOf(call);
  const prefix = `Could not ${call.action}.`;
  if (timeout.timedOut) {
    const seconds = Math.round(timeout.ms / 100) / 10;
    const reason = `The service at ${host} did not answer within ${seconds} s.${maybeCreatedHint(call)}`;
    return new NetworkError(`${prefix} ${reason}`, {
      status: null,
      maybeSent: true,
      operation,
      cause: error,
      timedOut: true,
      reason,
    });
  }
  if (failedBeforeSending(error)) {
    const code = failureCodes(error)[0] ?? '';
    const reason = `Could not connect to the service at ${host}: ${DESCRIPTIONS[code] ?? 'no connection'}. Check the address and the network connection.`;
    return new NetworkError(`${prefix} ${reason}`, {
      status: null,
      code,
      maybeSent: false,
      operation,
      cause: error,
      reason,
    });
  }
  const reason = `The connection to the service at ${host} broke before its answer arrived.${maybeCreatedHint(call)}`;
  return new NetworkError(`${prefix} ${reason}`, {
    status: null,
    code: failureCodes(error)[0] ?? null,
    maybeSent: true,
    operation,
    cause: error,
    reason,
  });
}

/**
 * The failure in a few words, for a line that already says it is the service that did not answer: "the
 * connection was refused", "the connection broke before the answer", "no answer in time".
 */
export function noAnswerWords(error: NetworkError): string {
  if (error.timedOut) return 'no answer in time';
  if (!error.maybeSent) return DESCRIPTIONS[error.code ?? ''] ?? 'no connection';
  return 'the connection broke before the answer';
}
