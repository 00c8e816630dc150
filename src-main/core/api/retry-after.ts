// `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). The description does not show
// whether the service sends it at all, so null ("not said") is an ordinary answer, not an error.

/** Milliseconds to wait, or null when the header is absent or unreadable. Never negative. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  if (/^\d+(?:\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  // Only an HTTP-date is accepted here (it names a weekday or month), not any string Date.parse likes.
  if (!/[A-Za-z]{3}/.test(raw)) return null;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
