import { InvalidArgumentError } from 'commander';
import { parseRateLimit, type RateLimit } from '../core/app/public-api.ts';

// Parsers for option values shared by the commands: each refuses a bad value with a message commander shows.

export function rateLimitOption(text: string): RateLimit {
  try {
    return parseRateLimit(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** A rate limit as users type it (`60/60s`), for help texts. */
export function formatRateLimit({ limit, windowMs }: RateLimit): string {
  return `${limit}/${windowMs / 1000}s`;
}

export function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('expected a number above 0');
  return value;
}

export function wholeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError('expected a whole number');
  return value;
}

export function probability(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new InvalidArgumentError('expected a number from 0 to 1');
  return value;
}

export function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new InvalidArgumentError('expected a port from 0 to 65535');
  }
  return value;
}
