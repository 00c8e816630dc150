import { describe, expect, it } from 'vitest';
import { sameOriginAs } from '../../../src-main/electron/own-origin.ts';

describe('sameOriginAs', () => {
  it('trusts our scheme and host only, whatever the path', () => {
    const own = sameOriginAs('app://adbatch/index.html');
    expect(own('app://adbatch/index.html')).toBe(true);
    expect(own('app://adbatch/index.html#/batches')).toBe(true);
    for (const url of [
      'file:///home/me/evil/renderer/index.html',
      'file:///app/out/renderer/index.html',
      'https://evil.example/app://adbatch/index.html',
      'https://adbatch/index.html',
      'app://adbatch.evil.example/index.html',
      'app://evil/adbatch/index.html',
      'app://adbatch:8080/index.html',
      'adbatch-media://f/token',
      'about:blank',
      'not a url',
      '',
    ]) {
      expect(own(url), url).toBe(false);
    }
  });

  it('compares the port of a dev server, not a prefix of its text', () => {
    const own = sameOriginAs('http://localhost:5173/');
    expect(own('http://localhost:5173/index.html')).toBe(true);
    expect(own('http://localhost:51730/')).toBe(false);
    expect(own('http://localhost:5173.evil.example/')).toBe(false);
    expect(own('https://localhost:5173/')).toBe(false);
    expect(own('http://127.0.0.1:5173/')).toBe(false);
  });
});
