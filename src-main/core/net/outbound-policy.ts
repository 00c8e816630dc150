import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressKind } from './address-kind.ts';

// Which URLs Adbatch may fetch on behalf of input (a catalog's photo URLs, a shoot's photos and model
// image, a video's logo): those whose host resolves to public addresses only, and those whose host a person
// allowed by name (Allowed hosts in Settings, `--allow-host` for one run), for a designer who serves their
// own catalog on the office network or on this machine. Every address a name resolves to is checked, and
// the one checked is the one connected to (`outbound-fetch.ts` pins it), so a name that answers a public
// address to the check and a private one to the connect reaches nothing.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (a test injects a fake DNS; real ones answer from the system). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** Hosts fetched whatever their addresses: `host` (any port) or `host:port`, as `parseAllowedHost` reads. */
  allowedHosts: readonly string[];
  /** Default: the system's resolver (`dns.lookup`, all addresses). */
  lookup?: LookupAll;
}

export type OutboundCheck = { ok: true; pinned: ResolvedAddress } | { ok: false; reason: string };

const systemLookup: LookupAll = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** A host as `--allow-host` and Settings take it: `name`, `name:port`, `1.2.3.4:port`, `[::1]:port`, `::1`. */
export interface AllowedHost {
  host: string;
  port: number | null;
}

/** Reads one allowed host; throws an Error that says what is wrong with it. */
export function parseAllowedHost(text: string): AllowedHost {
  const trimmed = text.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  const plain = /^([^:/\s@]+)(?::(\d+))?$/.exec(trimmed);
  const [host, port] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : isIP(trimmed) === 6
      ? [trimmed, undefined]
      : plain
        ? [plain[1]!, plain[2]]
        : [null, undefined];
  const portNumber = port === undefined ? null : Number(port);
  if (!host || (portNumber !== null && (portNumber < 1 || portNumber > 65_535))) {
    throw new Error(
      `"${text}" is not a host to allow: write a host name or address, with a port if you like (photos.example.lan, 192.168.1.20:8080, [::1]:8080)`,
    );
  }
  return { host, port: portNumber };
}

/** The URL's host without IPv6 brackets, and its port as connected to. */
function hostAndPort(url: URL): { host: string; port: number } {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port };
}

/** Whether a person allowed this URL's host (and port, when they named one). Unreadable entries allow nothing. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const { host, port } = hostAndPort(url);
  return allowedHosts.some((entry) => {
    let allowed: AllowedHost;
    try {
      allowed = parseAllowedHost(entry);
    } catch {
      return false;
    }
    // `::ffff:7f00:1` and `::1` are compared as URL parsing spells them.
    const spelled = isIP(allowed.host) === 6 ? new URL(`http://[${allowed.host}]/`).hostname : allowed.host;
    return spelled.replace(/^\[|\]$/g, '') === host && (allowed.port === null || allowed.port === port);
  });
}

const ON_YOUR_NETWORK = new Set([
  'a private address',
  'a shared (carrier-grade NAT) address',
  'a link-local address',
]);

/**
 * Whether this URL may be fetched, and the address to connect to. Never throws: a URL that is not http(s),
 * a host that does not resolve, an address that is not public all come back as the reason, in words.
 */
export async function checkOutbound(url: URL, policy: OutboundPolicy): Promise<OutboundCheck> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `${url.href} is not an http(s) address (${url.protocol})` };
  }
  const { host } = hostAndPort(url);
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOTFOUND' ? 'its host is not found' : `its host could not be looked up (${code})`;
      return { ok: false, reason: `${url.href}: ${why}` };
    }
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: `${url.href}: its host has no address` };
  if (isAllowedHost(url, policy.allowedHosts)) return { ok: true, pinned: first };
  for (const { address } of addresses) {
    const kind = addressKind(address);
    if (kind === null) continue;
    const where = ON_YOUR_NETWORK.has(kind) ? ' on your network' : '';
    const through = literal ? '' : ` through ${host}`;
    return {
      ok: false,
      reason:
        `${url.href} points at ${kind} (${address})${through}${where}; Adbatch fetches only public addresses. ` +
        `To allow it: --allow-host ${url.host}, or add it to Allowed hosts in Settings`,
    };
  }
  return { ok: true, pinned: first };
}
