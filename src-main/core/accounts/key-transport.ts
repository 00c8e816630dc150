import { isLoopbackHostname } from '../../shared/loopback.ts';
import { AppError } from '../app/errors.ts';

// Keys travel encrypted (issue 28, point 6): every request carries the API key, so a service address in
// plain http to another machine would hand the key to anyone on the way. Checked here once, for every front
// end that takes a base URL (the CLI's --base-url for run, mcp, approve and brands; accounts:add for the app). Loopback stays allowed
// in plain http: the sandbox and a service on this machine never leave it.

export const KEY_IN_CLEAR_RISK = 'the key would cross the network unencrypted';

/**
 * Whether a key may be sent to `baseUrl`: null when it travels encrypted (https) or stays on this machine;
 * a warning naming the risk when it is plain http elsewhere and the caller said so explicitly (`override`
 * names how, e.g. `--insecure-http`, `insecureHttp: true`); otherwise a refusal in words.
 */
export function checkKeyTransport(
  baseUrl: string,
  allowed: { insecureHttp: boolean; override: string },
): string | null {
  const url = URL.parse(baseUrl);
  if (!url) throw new AppError('bad_request', `${baseUrl} is not a web address (https://…).`);
  if (url.protocol !== 'http:' || isLoopbackHostname(url.hostname)) return null;
  const what = `${url.origin} is plain http to another machine: ${KEY_IN_CLEAR_RISK}, readable by anyone on the way`;
  if (allowed.insecureHttp) return `Warning: ${what} (allowed by ${allowed.override}).`;
  throw new AppError(
    'refused',
    `${what}. Use its https:// address, or ${allowed.override} to accept the risk.`,
  );
}
