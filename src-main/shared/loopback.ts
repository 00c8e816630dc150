// Loopback names and the Host check every listening port makes (issue 28). Written once here, beneath
// everything, because both sides need it: the sandbox, the loopback photo host, the MCP server and the test
// harness refuse a foreign Host; core refuses to send a key over plain http to anything but loopback.

/** 127.0.0.0/8, ::1 (bracketed or not, or IPv4-mapped) and localhost: names that never leave this machine. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(v4);
}

/** An address as a Host header names it: IPv6 in brackets. */
function hostPart(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/**
 * The Host headers a server listening on `port` answers to: its loopback names, and the other addresses it
 * was bound to (`also`, e.g. the sandbox started with `--host 192.168.1.5`). Anything else is a name the
 * browser was pointed at by someone else (DNS rebinding), so a page elsewhere cannot read the answer.
 */
export function ownHosts(port: number, also: readonly string[] = []): Set<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]', ...also.map(hostPart)].map((name) => name.toLowerCase());
  // Port 80 may be left out of the header (RFC 9110, 7.2).
  return new Set(names.flatMap((name) => (port === 80 ? [`${name}:80`, name] : [`${name}:${port}`])));
}

/** Whether a request's Host header is one of `hosts` (from `ownHosts`). */
export function isOwnHost(host: string | undefined, hosts: ReadonlySet<string>): boolean {
  return host !== undefined && hosts.has(host.toLowerCase());
}

/** How a refused Host is answered: 403 and a short text, as the MCP server and the harness always did. */
export const FOREIGN_HOST_STATUS = 403;
export const FOREIGN_HOST_REFUSAL =
  'This server answers only at its own address (127.0.0.1, localhost, [::1]).';
