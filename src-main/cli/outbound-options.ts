import { InvalidArgumentError, Option } from 'commander';
import { parseAllowedHost } from '../core/app/public-api.ts';

// `--allow-host HOST[:PORT]`, repeatable: a host on this computer or the office network that Adbatch may
// fetch input from for this run (a catalog served from the LAN), on top of Allowed hosts in Settings.
// Every other address that is not public is refused with its reason (core/net/outbound-policy.ts). The flag
// also reads ADBATCH_ALLOW_HOSTS (comma-separated), so `resume` or `videos` allow the same hosts as the run.

export interface OutboundFlags {
  allowHost: string[];
}

function collectHosts(text: string, hosts: string[]): string[] {
  const named = text
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  for (const host of named) {
    try {
      parseAllowedHost(host);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  }
  return [...hosts, ...named];
}

/** The option, added to each command that scans or sends input. */
export function allowHostOption(): Option {
  return new Option(
    '--allow-host <host[:port]>',
    'fetch catalog photos and other input from this host though it is on this computer or your network (repeatable)',
  )
    .argParser(collectHosts)
    .default([], 'public addresses only')
    .env('ADBATCH_ALLOW_HOSTS');
}
