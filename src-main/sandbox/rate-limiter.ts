export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Parses `N/Ws` (for example `60/60s`, `600/6s`, `60/0.6s`): N requests in any rolling W seconds. */
export function parseRateLimit(text: string): RateLimit {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)s$/.exec(text.trim());
  const limit = Number(match?.[1]);
  const windowMs = Math.round(Number(match?.[2]) * 1000);
  if (!match || limit < 1 || windowMs < 1) {
    throw new Error(`rate limit "${text}" is not of the form N/Ws, for example 60/60s`);
  }
  return { limit, windowMs };
}

/**
 * A sliding log per key: a request is accepted when fewer than `limit` requests arrived in the last
 * `windowMs`. Every request counts, refused ones included: "all keyed endpoints counted", and a client that
 * keeps knocking while refused stays refused, which is why the description says to back off. A client that
 * keeps to the limit in any rolling window never sees a 429, whatever window it assumes.
 */
export class RateLimiter {
  private readonly logs = new Map<string, number[]>();

  constructor(
    private readonly rate: RateLimit,
    private readonly now: () => number,
  ) {}

  /**
   * Records the request and returns 0 when it is accepted, else the milliseconds after which a single
   * request would be accepted, if none is sent meanwhile.
   */
  take(key: string): number {
    const now = this.now();
    const log = this.logs.get(key) ?? [];
    const cutoff = now - this.rate.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired]! <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    const accepted = log.length < this.rate.limit;
    log.push(now);
    this.logs.set(key, log);
    if (accepted) return 0;
    return log[log.length - this.rate.limit]! + this.rate.windowMs - now;
  }

  clear(): void {
    this.logs.clear();
  }
}
