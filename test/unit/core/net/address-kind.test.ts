import { describe, expect, it } from 'vitest';
import { addressKind } from '../../../../src-main/core/net/address-kind.ts';
import { isAllowedHost, parseAllowedHost } from '../../../../src-main/core/net/outbound-policy.ts';

// What an address points at, as the outbound policy words it: every range that is not the public internet,
// in IPv4, IPv6 and IPv4 written as IPv6.

describe('addressKind', () => {
  it('says nothing of a public address', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450::1']) {
      expect(addressKind(address), address).toBeNull();
    }
  });

  it('names each kind of address that is not public', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'a loopback address (this computer)'],
      ['127.8.9.10', 'a loopback address (this computer)'],
      ['::1', 'a loopback address (this computer)'],
      ['10.1.2.3', 'a private address'],
      ['172.16.0.1', 'a private address'],
      ['172.31.255.255', 'a private address'],
      ['192.168.1.1', 'a private address'],
      ['fc00::1', 'a private address'],
      ['fd12:3456::1', 'a private address'],
      ['169.254.169.254', 'the cloud metadata address'],
      ['fd00:ec2::254', 'the cloud metadata address'],
      ['169.254.10.20', 'a link-local address'],
      ['fe80::1', 'a link-local address'],
      ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
      ['100.127.255.254', 'a shared (carrier-grade NAT) address'],
      ['224.0.0.1', 'a multicast address'],
      ['ff02::1', 'a multicast address'],
      ['0.0.0.0', 'an unspecified address'],
      ['::', 'an unspecified address'],
      ['255.255.255.255', 'a reserved address'],
      ['192.0.2.10', 'a documentation address'],
      ['2001:db8::1', 'a documentation address'],
    ];
    for (const [address, kind] of cases) expect(addressKind(address), address).toBe(kind);
  });

  it('sees through IPv4 written as IPv6, in every spelling', () => {
    expect(addressKind('::ffff:127.0.0.1')).toBe('a loopback address (this computer)');
    expect(addressKind('::ffff:7f00:1')).toBe('a loopback address (this computer)');
    expect(addressKind('::ffff:169.254.169.254')).toBe('the cloud metadata address');
    expect(addressKind('::ffff:c0a8:101')).toBe('a private address');
    expect(addressKind('64:ff9b::10.0.0.1')).toBe('a private address');
    expect(addressKind('::ffff:8.8.8.8')).toBeNull();
    // The old IPv4-compatible form is reserved whatever it carries.
    expect(addressKind('::10.0.0.1')).toBe('a reserved address');
  });

  it('edges: the last address before a range and the first after it are public', () => {
    expect(addressKind('172.15.255.255')).toBeNull();
    expect(addressKind('172.32.0.0')).toBeNull();
    expect(addressKind('100.63.255.255')).toBeNull();
    expect(addressKind('100.128.0.0')).toBeNull();
    expect(addressKind('fbff:ffff::1')).toBeNull();
  });
});

describe('allowed hosts', () => {
  it('reads a host, with or without a port, IPv6 included', () => {
    expect(parseAllowedHost('Photos.Example.LAN')).toEqual({ host: 'photos.example.lan', port: null });
    expect(parseAllowedHost('192.168.1.20:8080')).toEqual({ host: '192.168.1.20', port: 8080 });
    expect(parseAllowedHost('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAllowedHost('fd00::5')).toEqual({ host: 'fd00::5', port: null });
  });

  it('refuses what is not a host, saying what one looks like', () => {
    for (const text of ['http://x/y', 'a b', 'host:0', 'host:70000', '', 'user@host']) {
      expect(() => parseAllowedHost(text), text).toThrow(
        /is not a host to allow: write a host name or address/,
      );
    }
  });

  it('allows a named host on any port, or on the one port named', () => {
    const url = new URL('http://192.168.1.20:8080/a.jpg');
    expect(isAllowedHost(url, ['192.168.1.20'])).toBe(true);
    expect(isAllowedHost(url, ['192.168.1.20:8080'])).toBe(true);
    expect(isAllowedHost(url, ['192.168.1.20:8081'])).toBe(false);
    expect(isAllowedHost(url, ['192.168.1.2'])).toBe(false);
    expect(isAllowedHost(new URL('https://nas.lan/a.jpg'), ['nas.lan:443'])).toBe(true);
    expect(isAllowedHost(new URL('http://nas.lan/a.jpg'), ['nas.lan:443'])).toBe(false);
    expect(isAllowedHost(new URL('http://[::1]:9000/a.jpg'), ['[::1]:9000'])).toBe(true);
    expect(isAllowedHost(new URL('http://[::ffff:127.0.0.1]/a.jpg'), ['::ffff:7f00:1'])).toBe(true);
    // An entry that cannot be read allows nothing.
    expect(isAllowedHost(url, ['http://192.168.1.20/'])).toBe(false);
  });
});
