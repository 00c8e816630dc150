import type { Db } from '../db/open.ts';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export const SERVICE_RATE_LIMIT: RateLimit = { limit: 60, windowMs: 60_000 };

/** Parses `N/Ws` (for example `60/60s`, `60/0.6s`): N requests in any rolling W seconds. */
export function parseRateLimit(text: string): RateLimit {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)s$/.exec(text.trim());
  const limit = Number(match?.[1]);
  const windowMs = Math.round(Number(match?.[2]) * 1000);
  if (!match || limit < 1 || windowMs < 1)
    throw new Error(`rate limit "${text}" is not of the form N/Ws, e.g. 60/60s`);
  return { limit, windowMs };
}

/**
 * Pacing: once half the window's allowance is used, at most a sixth of it goes out in any sixth of the
 * window. A small batch still starts at once, and the average rate is the same, but a full window is never
 * sent in one burst: a burst reaches the service spread over the time it takes to handle it, and its last
 * request would then count in the next window.
 */
const PACING_PARTS = 6;

const MIN_SLACK_MS = 250;

/** Milliseconds until fewer than `allowed` of the (sorted) send times lie in the last `windowMs`. */
function untilRoom(times: readonly number[], allowed: number, windowMs: number, now: number): number {
  const inWindow = times.filter((at) => at > now - windowMs);
  if (inWindow.length < allowed) return 0;
  return inWindow[inWindow.length - allowed]! + windowMs - now + 1;
}

/**
 * One request budget per API key, for all of its traffic. A slot is taken, and written to the database,
 * before a request is sent, so that neither a restart nor a crash can burst past the limit.
 *
 * The window is widened by a slack (1% of it, at least 250 ms): the service counts a request when it
 * handles it, a little after it left, and one request can take longer on the way (or wait longer for a busy
 * server) than another, so a request that leaves exactly one window after another could still be counted
 * inside it. That jitter does not shrink with the window, hence the floor.
 * A 429 (someone else using the key, or a window we misjudged) blocks sending for the time the service
 * asked (or an exponential backoff) and halves the rate we allow ourselves for each 429 in a row; a whole
 * window without a 429 restores the full rate.
 */
/**
 * A slot taken in a budget: call it right before the request leaves. `release()` gives back a slot whose
 * request never left (it failed while being prepared); after the call it does nothing. Unreleased, a slot
 * that is never stamped would hold its place forever.
 */
export interface Slot {
  (): void;
  release(): void;
}

export class RequestBudget {
  /** When each request of the current window left; a slot still being prepared counts as leaving now. */
  private sent: Array<{ at: number; pending: boolean }>;
  private blockedUntil = 0;
  private consecutive429 = 0;
  private last429At = Number.NEGATIVE_INFINITY;
  private readonly slackMs: number;

  constructor(
    private readonly db: Db,
    readonly keyId: string,
    private readonly rate: RateLimit,
    private readonly now: () => number,
    /** How many parts of the window pacing spreads the allowance over (1: no pacing). */
    private readonly pacingParts = PACING_PARTS,
  ) {
    this.slackMs = Math.max(Math.round(rate.windowMs * 0.01), MIN_SLACK_MS);
    const since = now() - this.windowMs();
    this.sent = (
      db
        .prepare('SELECT at FROM request_log WHERE key_id = ? AND at > ? ORDER BY at')
        .all(keyId, since) as Array<{
        at: number;
      }>
    ).map((row) => ({ at: row.at, pending: false }));
  }

  private windowMs(): number {
    return this.rate.windowMs + this.slackMs;
  }

  private allowed(now: number): number {
    if (now - this.last429At > this.rate.windowMs) this.consecutive429 = 0;
    return Math.max(1, this.rate.limit >> this.consecutive429);
  }

  /** Forgets requests older than a window; a slot not yet stamped may still leave, so it stays. */
  private prune(now: number): void {
    const cutoff = now - this.windowMs();
    this.sent = this.sent.filter((slot) => slot.pending || slot.at > cutoff);
  }

  /** Milliseconds until a request may be sent (0 when one may go now). */
  waitMs(): number {
    const now = this.now();
    this.prune(now);
    const blocked = Math.max(0, this.blockedUntil - now);
    const times = this.sent.map((slot) => (slot.pending ? now : slot.at)).sort((a, b) => a - b);
    const allowed = this.allowed(now);
    const paced =
      times.length >= allowed / 2
        ? untilRoom(times, Math.ceil(allowed / this.pacingParts), this.windowMs() / this.pacingParts, now)
        : 0;
    return Math.max(blocked, untilRoom(times, allowed, this.windowMs(), now), paced);
  }

  /** Requests the window still has room for (pacing aside). */
  available(): number {
    const now = this.now();
    this.prune(now);
    if (this.blockedUntil > now) return 0;
    return Math.max(0, this.allowed(now) - this.sent.length);
  }

  /**
   * Takes a slot now (call only when `waitMs()` is 0) and returns what to call right before the request
   * leaves: that stamps the slot with the real send time and makes it durable, so a crash cannot forget a
   * request that was sent, and preparing the request (a database write, hosting a photo) never eats into
   * the margin between windows.
   */
  take(): Slot {
    const slot = { at: this.now(), pending: true };
    this.sent.push(slot);
    const stamp = () => {
      slot.at = Math.max(slot.at, this.now());
      slot.pending = false;
      this.db.prepare('INSERT INTO request_log (key_id, at) VALUES (?, ?)').run(this.keyId, slot.at);
    };
    return Object.assign(stamp, {
      release: () => {
        if (slot.pending) this.sent = this.sent.filter((kept) => kept !== slot);
      },
    });
  }

  /** Sends nothing for `ms` (the service could not be reached), without touching the rate. */
  holdOff(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }

  /** The service answered 429: slow down. */
  rateLimited(retryAfterMs: number | null): void {
    const now = this.now();
    this.allowed(now);
    this.consecutive429 = Math.min(this.consecutive429 + 1, 16);
    this.last429At = now;
    const backoff = Math.min(this.rate.windowMs, (this.rate.windowMs / 60) * 2 ** (this.consecutive429 - 1));
    this.blockedUntil = Math.max(this.blockedUntil, now + Math.max(retryAfterMs ?? 0, backoff));
  }

  /** Drops log rows no window can need any more; the log otherwise grows by one row per request. */
  compact(): void {
    this.db
      .prepare('DELETE FROM request_log WHERE key_id = ? AND at <= ?')
      .run(this.keyId, this.now() - 2 * this.windowMs());
  }
}
