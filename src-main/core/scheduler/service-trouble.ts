import type { ServiceTrouble } from '../../shared/models.ts';
import { MalformedResponseError, NetworkError, ServerError } from '../api/index.ts';
import { noAnswerWords } from '../api/network-errors.ts';

// A service that stops answering mid-batch (the network dropped, the service is down or failing) once showed
// only "waiting on the service for 5 min", as a slow day does: nothing said that no request was answered.
// Every request of a key goes through its budget's slot, so the slot sees each answer or its absence; what
// it saw is kept per key in this process (SendLog), and a batch of the key says it instead of its time left.

/**
 * Failures in a row said only after this long, so that one dropped connection or one 503 among answers is
 * not news. GUESS: 10 s, a few polls' worth and well under the stall a batch is said to have; in the
 * service's time, as the stall is (a fast sandbox's a hundredth of it).
 */
export const SAY_TROUBLE_AFTER_MS = 10_000;

/** How a request failed, as the service's trouble; null when the service answered (even "no"). */
export function troubleOf(error: unknown): Omit<ServiceTrouble, 'since'> | null {
  if (error instanceof NetworkError) return { kind: 'no_answer', reason: noAnswerWords(error) };
  if (error instanceof ServerError)
    return { kind: 'errors', reason: error.status === null ? 'an error' : `HTTP ${error.status}` };
  if (error instanceof MalformedResponseError)
    return { kind: 'errors', reason: 'answers that cannot be read' };
  return null;
}

/**
 * The requests of one key lately, as its slots saw them: since when every one failed (no answer, or a 5xx
 * or garbage), until one is answered.
 */
export class ServiceHealth {
  private current: ServiceTrouble | null = null;

  answered(): void {
    this.current = null;
  }

  /** A request that left at `sentAt` failed so. The run of failures began with the first of them. */
  failed(sentAt: number, trouble: Omit<ServiceTrouble, 'since'>): void {
    this.current = { ...trouble, since: Math.min(this.current?.since ?? sentAt, sentAt) };
  }

  /** The trouble worth saying at `now`: failing for SAY_TROUBLE_AFTER_MS (times the service's time scale) and more. */
  troubleAt(now: number, timeScale = 1): ServiceTrouble | null {
    const lasted = this.current !== null && now - this.current.since >= SAY_TROUBLE_AFTER_MS * timeScale;
    return lasted ? this.current : null;
  }
}
