import { describe, expect, it } from 'vitest';
import {
  allowedHostsOf,
  libraryDirOf,
  marginOf,
} from '../../../src-renderer/src/screens/settings/general-values.ts';

// Settings' general fields read what was typed before anything is sent: the value, or the refusal a designer
// reads beside the field (the contract's own, in a developer's terms, is never shown).

describe('Settings values as typed', () => {
  it('takes a share of the key left to other apps from 0 to 50, whole', () => {
    expect(marginOf(' 10 ')).toEqual({ value: 10 });
    expect(marginOf('0')).toEqual({ value: 0 });
    expect(marginOf('50')).toEqual({ value: 50 });
    for (const refused of ['51', '-1', '2.5', '', 'ten']) {
      expect(marginOf(refused), refused).toEqual({ error: 'Not saved: a whole number from 0 to 50.' });
    }
  });

  it('takes allowed hosts one a line, blank lines dropped, and names the first that is no host', () => {
    expect(allowedHostsOf('photos.office.lan\n\n 192.168.1.20:8080 \n[::1]:9000')).toEqual({
      value: ['photos.office.lan', '192.168.1.20:8080', '[::1]:9000'],
    });
    expect(allowedHostsOf('')).toEqual({ value: [] });
    expect(allowedHostsOf('ok.lan\nphotos office.lan\nhttp://x/')).toEqual({
      error: 'Not saved: “photos office.lan” is not a host name or address, with a port if you like.',
    });
  });

  it('keeps a library folder, never an empty one', () => {
    expect(libraryDirOf(' /Users/ana/Adbatch ')).toEqual({ value: '/Users/ana/Adbatch' });
    expect(libraryDirOf('  ')).toEqual({ error: 'Not saved: results need a folder to go in.' });
  });
});
