import { isIPv4, isIPv6 } from 'node:net';

// What kind of address an IP is, for the outbound policy: null for a public one, otherwise the words that
// say where it leads. A catalog is a file from a client or a supplier, and the designer's machine sits
// inside an office network: an address that is not public reaches this machine, the office's devices or
// the cloud's metadata service, never a photo host on the internet.

/** A range of addresses and what an address in it is, in words that finish "points at ...". */
interface Range {
  bits: bigint;
  prefix: number;
  words: string;
}

const V4_WIDTH = 32;
const V6_WIDTH = 128;

function v4Bits(address: string): bigint {
  return address.split('.').reduce((bits, part) => (bits << 8n) | BigInt(Number(part)), 0n);
}

/** The 128 bits of an IPv6 address in any of its spellings (`::`, an embedded dotted quad, a zone). */
function v6Bits(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Bits(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

function range(cidr: string, words: string): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { bits: isIPv4(address) ? v4Bits(address) : v6Bits(address), prefix: Number(prefix), words };
}

const PRIVATE = 'a private address';
const RESERVED = 'a reserved address';

/** Most specific first: the metadata address lies inside link-local. */
const V4_RANGES: Range[] = [
  range('169.254.169.254/32', 'the cloud metadata address'),
  range('0.0.0.0/8', 'an unspecified address'),
  range('127.0.0.0/8', 'a loopback address (this computer)'),
  range('10.0.0.0/8', PRIVATE),
  range('172.16.0.0/12', PRIVATE),
  range('192.168.0.0/16', PRIVATE),
  range('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  range('169.254.0.0/16', 'a link-local address'),
  range('192.0.0.0/24', RESERVED),
  range('192.0.2.0/24', 'a documentation address'),
  range('198.51.100.0/24', 'a documentation address'),
  range('203.0.113.0/24', 'a documentation address'),
  range('198.18.0.0/15', RESERVED),
  range('224.0.0.0/4', 'a multicast address'),
  range('240.0.0.0/4', RESERVED),
];

const V6_RANGES: Range[] = [
  range('fd00:ec2::254/128', 'the cloud metadata address'),
  range('::/128', 'an unspecified address'),
  range('::1/128', 'a loopback address (this computer)'),
  range('fc00::/7', PRIVATE),
  range('fec0::/10', PRIVATE),
  range('fe80::/10', 'a link-local address'),
  range('ff00::/8', 'a multicast address'),
  range('100::/64', RESERVED),
  range('2001:db8::/32', 'a documentation address'),
  range('64:ff9b:1::/48', RESERVED),
  // IPv4 written as IPv6 in older ways (`::a.b.c.d`), and the rest of the reserved ::/8.
  range('::/8', RESERVED),
];

/** Prefixes that carry an IPv4 address in their last 32 bits: it is that address that is reached. */
const V4_CARRIERS: Range[] = [range('::ffff:0:0/96', 'IPv4-mapped'), range('64:ff9b::/96', 'NAT64')];

function within(bits: bigint, width: number, candidate: Range): boolean {
  const shift = BigInt(width - candidate.prefix);
  return bits >> shift === candidate.bits >> shift;
}

/** Null for a public address; otherwise what it points at ("a private address"). Not an IP: reserved. */
export function addressKind(address: string): string | null {
  if (isIPv4(address)) {
    return V4_RANGES.find((candidate) => within(v4Bits(address), V4_WIDTH, candidate))?.words ?? null;
  }
  if (!isIPv6(address)) return RESERVED;
  const bits = v6Bits(address);
  const carrier = V4_CARRIERS.find((candidate) => within(bits, V6_WIDTH, candidate));
  if (carrier) {
    const v4 = bits & 0xffffffffn;
    const dotted = [24n, 16n, 8n, 0n].map((shift) => String((v4 >> shift) & 0xffn)).join('.');
    return addressKind(dotted);
  }
  return V6_RANGES.find((candidate) => within(bits, V6_WIDTH, candidate))?.words ?? null;
}
