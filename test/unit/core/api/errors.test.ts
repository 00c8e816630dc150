import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../../../src-main/core/api/call-context.ts';
import {
  ConflictError,
  ForbiddenError,
  maskApiKey,
  parseRetryAfter,
  RateLimitedError,
  redactApiKeys,
  ServerError,
  ValidationError,
} from '../../../../src-main/core/api/index.ts';
import { failedBeforeSending } from '../../../../src-main/core/api/network-errors.ts';
import { errorFromResponse, readErrorEnvelope } from '../../../../src-main/core/api/response-errors.ts';

const KEY = `adsk_${'ab12'.repeat(16)}`;
const create: CallContext = {
  method: 'POST',
  path: '/v1/shoots',
  action: 'create the shoot',
  creates: 'shoot',
  charges: true,
  maskedKey: maskApiKey(KEY),
};

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP-dates, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('readErrorEnvelope', () => {
  it('reads the documented envelope and common variants', () => {
    expect(readErrorEnvelope('{"error":{"code":"invalid_field","message":"style is wrong"}}')).toEqual({
      code: 'invalid_field',
      message: 'style is wrong',
    });
    expect(readErrorEnvelope('{"code":"x","message":"flat"}')).toEqual({ code: 'x', message: 'flat' });
    expect(readErrorEnvelope('{"error":"Bad key"}')).toEqual({ code: null, message: 'Bad key' });
    expect(readErrorEnvelope('{"error":"invalid_request"}')).toEqual({
      code: 'invalid_request',
      message: 'invalid_request',
    });
    expect(readErrorEnvelope('Bad Gateway')).toEqual({ code: null, message: 'Bad Gateway' });
    expect(readErrorEnvelope('<html><body>502</body></html>')).toEqual({ code: null, message: null });
    expect(readErrorEnvelope('')).toEqual({ code: null, message: null });
  });

  it('never lets a key through', () => {
    const { message } = readErrorEnvelope(
      JSON.stringify({ error: { code: 'x', message: `key ${KEY} revoked` } }),
    );
    expect(message).toBe('key …ab12 revoked');
    expect(redactApiKeys(`a ${KEY} b`)).not.toContain(KEY);
  });
});

describe('errorFromResponse', () => {
  const answer = (status: number, body = '', headers: Record<string, string> = {}) => ({
    status,
    headers,
    body,
  });

  it('chooses the class by status even without a readable body', () => {
    expect(errorFromResponse(answer(422, 'nope'), create, KEY)).toBeInstanceOf(ValidationError);
    expect(errorFromResponse(answer(415), create, KEY)).toBeInstanceOf(ValidationError);
    expect(errorFromResponse(answer(403), create, KEY)).toBeInstanceOf(ForbiddenError);
    expect(errorFromResponse(answer(409), create, KEY)).toBeInstanceOf(ConflictError);
    const odd = errorFromResponse(answer(302), create, KEY);
    expect(odd).toBeInstanceOf(ServerError);
    expect(odd.maybeSent).toBe(true);
  });

  it('treats every 4xx as definitive and every 5xx as possibly handled', () => {
    expect(errorFromResponse(answer(405), create, KEY)).toMatchObject({ kind: 'server', maybeSent: false });
    const gateway = errorFromResponse(answer(502, '<html>'), create, KEY);
    expect(gateway).toMatchObject({ kind: 'server', status: 502, maybeSent: true });
    expect(gateway.message).toContain('may have been created and charged');
  });

  it('reads Retry-After on a 429, or says it does not know', () => {
    const limited = errorFromResponse(answer(429, '', { 'retry-after': '12' }), create, KEY);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(12_000);
    expect(limited.maybeSent).toBe(false);
    expect((errorFromResponse(answer(429), create, KEY) as RateLimitedError).retryAfterMs).toBeNull();
  });

  it('explains an agency-only refusal', () => {
    const body = JSON.stringify({ error: { code: 'agency_only', message: 'Brands are for agency keys.' } });
    expect(errorFromResponse(answer(403, body), create, KEY).message).toContain('needs an agency key');
  });
});

describe('failedBeforeSending', () => {
  const coded = (code: string) => Object.assign(new Error(code), { code });

  it('is true only for connect-phase failures', () => {
    expect(failedBeforeSending(coded('ECONNREFUSED'))).toBe(true);
    expect(failedBeforeSending(coded('UND_ERR_CONNECT_TIMEOUT'))).toBe(true);
    expect(failedBeforeSending(new AggregateError([coded('ECONNREFUSED'), coded('ENETUNREACH')]))).toBe(true);
    expect(failedBeforeSending(new AggregateError([coded('ECONNREFUSED'), coded('ECONNRESET')]))).toBe(false);
    expect(failedBeforeSending(coded('ECONNRESET'))).toBe(false);
    expect(failedBeforeSending(coded('UND_ERR_SOCKET'))).toBe(false);
    expect(failedBeforeSending(coded('UND_ERR_HEADERS_TIMEOUT'))).toBe(false);
    expect(failedBeforeSending(new Error('no code'))).toBe(false);
  });
});
