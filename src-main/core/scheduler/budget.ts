import { RateLimitedError } from '../api/index.ts';
import type { Db } from '../db/open.ts';
import { SendLog, type Sent } from './send-log.ts';
import { troubleOf } from './service-trouble.ts';

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
const MIN_ANSWERED_MARGIN_MS = 5;

/** Milliseconds until fewer than `allowed` of the (sorted) send times lie in the last `windowMs`. */
function untilRoom(times: readonly number[], allowed: number, windowMs: number, now: number): number {
  const inWindow = times.filter((at) => at > now - windowMs);
  if (inWindow.length < allowed) return 0;
  return inWindow[inWindow.length - allowed]! + windowMs - now + 1;
}

/** Milliseconds until fewer than `allowed` of the (sorted) moments at which requests leave the window lie ahead. */
function untilExpired(expiries: readonly number[], allowed: number, now: number): number {
  const live = expiries.filter((at) => at > now);
  if (live.length < allowed) return 0;
  return live[live.length - allowed]! - now + 1;
}

/**
 * A slot taken in a budget. Calling it stamps the slot right before the request leaves (and writes it
 * down); `send` does that and also follows the request to its answer, which is what a budget should
 * know: the service counts a request at some moment between the two. `release()` gives back a slot whose
 * request never left (it failed while being prepared); after a stamp it does nothing. Unreleased, a slot
 * that is never stamped would hold its place forever.
 */
export interface Slot {
  (): void;
  send<T>(request: () => Promise<T>): Promise<T>;
  release(): void;
}

/**
 * One request budget per API key, for all of its traffic. A slot is taken, and written to the database,
 * before a request is sent, so that neither a restart nor a crash can burst past the limit.
 *
 * When the service counts a request is unknown: when it reads it, a little after it left, and a request can
 * take longer on the way (or wait longer for a busy server) than another, so a request that leaves exactly
 * one window after another could still be counted inside it. What is known is that it was counted before
 * it was answered. So a request followed to its answer (`Slot.send`) counts as leaving now until it is
 * answered, and then from its answer, with a margin for two clocks that tick at slightly different rates
 * (0.1% of the window, at least 5 ms): no delay on the way or at the service can then make two requests
 * fall in one window of the service that were not in one of ours. A request only stamped, or whose answer
 * never came (a timeout, a reset), counts from when it left or gave up, widened by a slack (1% of the
 * window, at least 250 ms) for the time it may take to be counted.
 *
 * A 429 (someone else using the key, or a window we misjudged) blocks sending for the time the service
 * asked (or an exponential backoff) and halves the rate we allow ourselves for each 429 in a row; a whole
 * window without a 429 restores the full rate. Every budget of a key in this process shares what the key
 * sent and its 429s (`SendLog`).
 */
export class RequestBudget {
  private readonly log: SendLog;
  private readonly slackMs: number;
  private readonly answeredMarginMs: number;

  constructor(
    db: Db,
    readonly keyId: string,
    private readonly rate: RateLimit,
    private readonly now: () => number,
    /** How many parts of the window pacing spreads the allowance over (1: no pacing). */
    private readonly pacingParts = PACING_PARTS,
  ) {
    this.slackMs = Math.max(Math.round(rate.windowMs * 0.01), MIN_SLACK_MS);
    this.answeredMarginMs = Math.max(Math.round(rate.windowMs * 0.001), MIN_ANSWERED_MARGIN_MS);
    this.log = SendLog.of(db, keyId);
    this.log.cover(now() - this.windowMs(), this.windowMs());
  }

  /** The window a request only known to have left counts in. */
  private windowMs(): number {
    return this.rate.windowMs + this.slackMs;
  }

  /** When a request leaves our window: a pending one is still leaving now. */
  private expiry(entry: Sent, now: number): number {
    if (entry.phase === 'pending') return now + this.windowMs();
    if (entry.phase === 'answered') return entry.at + this.rate.windowMs + this.answeredMarginMs;
    return entry.at + this.windowMs();
  }

  private allowed(now: number): number {
    if (now - this.log.last429At > this.rate.windowMs) this.log.consecutive429 = 0;
    return Math.max(1, this.rate.limit >> this.log.consecutive429);
  }

  /** The moments at which the requests in the window leave it, soonest first. */
  private live(now: number): number[] {
    this.log.prune(now);
    return this.log.entries
      .map((entry) => this.expiry(entry, now))
      .filter((at) => at > now)
      .sort((a, b) => a - b);
  }

  /** Milliseconds until a request may be sent (0 when one may go now). */
  waitMs(): number {
    const now = this.now();
    const live = this.live(now);
    const blocked = Math.max(0, this.log.blockedUntil - now);
    const allowed = this.allowed(now);
    // Pacing smooths the flow; the guarantee is the whole window's. It looks at when requests left (or
    // were answered), over parts of the window without the slack, so that it does not slow the steady rate.
    const times = this.log.entries
      .map((entry) => (entry.phase === 'pending' ? now : entry.at))
      .sort((a, b) => a - b);
    const part = (this.rate.windowMs + this.answeredMarginMs) / this.pacingParts;
    const paced =
      live.length >= allowed / 2 ? untilRoom(times, Math.ceil(allowed / this.pacingParts), part, now) : 0;
    return Math.max(blocked, untilExpired(live, allowed, now), paced);
  }

  /** Requests the window still has room for (pacing aside). */
  available(): number {
    const now = this.now();
    const live = this.live(now);
    if (this.log.blockedUntil > now) return 0;
    return Math.max(0, this.allowed(now) - live.length);
  }

  /**
   * Takes a slot now (call only when `waitMs()` is 0) and returns what to call right before the request
   * leaves: that stamps the slot with the real send time and makes it durable, so a crash cannot forget a
   * request that was sent, and preparing the request (a database write, hosting a photo) never eats into
   * the margin between windows.
   */
  take(): Slot {
    const entry: Sent = { at: this.now(), phase: 'pending', rowId: null };
    this.log.entries.push(entry);
    let stamped = false;
    const stamp = () => {
      if (stamped) return;
      stamped = true;
      entry.at = Math.max(entry.at, this.now());
      entry.phase = 'sent';
      this.log.write(entry);
    };
    const send = async <T>(request: () => Promise<T>): Promise<T> => {
      stamp();
      const sentAt = entry.at;
      // On its way, the request counts as leaving now: the service may not have counted it yet.
      entry.phase = 'pending';
      try {
        const answer = await request();
        this.settle(entry, sentAt, 'answered');
        this.log.health.answered();
        return answer;
      } catch (error) {
        this.settle(entry, sentAt, 'sent');
        const trouble = troubleOf(error);
        if (trouble) this.log.health.failed(sentAt, trouble);
        else this.log.health.answered();
        throw error;
      }
    };
    return Object.assign(stamp, {
      send,
      release: () => {
        if (!stamped) this.log.remove(entry);
      },
    });
  }

  /**
   * A request came back: answered, it was counted by now; failed without an answer (or with one we cannot
   * trust to mean it was read), it is counted from now, with the slack. Its row moves only when a restart
   * would otherwise count it for less long than we do.
   */
  private settle(entry: Sent, sentAt: number, phase: 'answered' | 'sent'): void {
    entry.at = Math.max(sentAt, this.now());
    entry.phase = phase;
    const durableAt = phase === 'answered' ? entry.at + this.answeredMarginMs - this.slackMs : entry.at;
    if (durableAt > sentAt) this.log.move(entry, durableAt);
  }

  /**
   * Waits for a slot, then sends: for a request made beside the engine's own (a balance check, the model
   * list), so that it cannot push a running batch over the rate limit. A 429 slows the key down.
   */
  async send<T>(request: () => Promise<T>): Promise<T> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    try {
      return await this.take().send(request);
    } catch (error) {
      if (error instanceof RateLimitedError) this.rateLimited(error.retryAfterMs);
      throw error;
    }
  }

  /** Sends nothing for `ms` (the service could not be reached), without touching the rate. */
  holdOff(ms: number): void {
    this.log.blockedUntil = Math.max(this.log.blockedUntil, this.now() + ms);
  }

  /** The service answered 429: slow down. */
  rateLimited(retryAfterMs: number | null): void {
    const now = this.now();
    this.allowed(now);
    this.log.consecutive429 = Math.min(this.log.consecutive429 + 1, 16);
    this.log.last429At = now;
    const backoff = Math.min(
      this.rate.windowMs,
      (this.rate.windowMs / 60) * 2 ** (this.log.consecutive429 - 1),
    );
    this.log.blockedUntil = Math.max(this.log.blockedUntil, now + Math.max(retryAfterMs ?? 0, backoff));
  }

  /** Drops log rows no window can need any more; the log otherwise grows by one row per request. */
  compact(): void {
    this.log.compact(this.now() - 2 * this.windowMs());
  }
}
