// What a failing call was about, so its error can speak to a designer ("Could not create the shoot")
// and to a log (`POST /v1/shoots`) without ever carrying the key or a query string.

export interface CallContext {
  method: 'GET' | 'POST';
  /** The path without query string, e.g. `/v1/shoots/sh_123`. */
  path: string;
  /** The action in plain words, completing "Could not …": `create the shoot`, `read the credit balance`. */
  action: string;
  /** For creates: what may have been created and charged when the outcome is unknown (`shoot`, `video`). */
  creates?: string;
  /** True when a create spends credits (shoots, videos), so the warning can say "and charged". */
  charges?: boolean;
  /** The masked key (`…a1b2`), to say which key was refused; empty when no key was sent. */
  maskedKey: string;
}

export function operationOf(call: CallContext): string {
  return `${call.method} ${call.path}`;
}

/** Ends a fragment with exactly one full stop, so fragments can be joined into sentences. */
export function sentence(fragment: string): string {
  const trimmed = fragment.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The warning that matters most when a create's outcome is unknown: do not pay twice. */
export function maybeCreatedHint(call: CallContext): string {
  return call.creates
    ? ` The ${call.creates} may have been created${call.charges ? ' and charged' : ''} anyway: check before trying again.`
    : '';
}
