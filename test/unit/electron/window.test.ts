import { describe, expect, it } from 'vitest';
import { boundsToSave, DEFAULT_BOUNDS, lockDown, visibleBounds } from '../../../src-main/electron/window.ts';

// windowOptions is checked with the rest of the window's security in security-audit.test.ts.

describe('visibleBounds', () => {
  const screens = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('restores a saved place on a display that is still there, else only the size', () => {
    expect(visibleBounds({ x: 100, y: 80, width: 1200, height: 800 }, screens)).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
    expect(visibleBounds({ x: 2500, y: 80, width: 1200, height: 800, maximized: true }, screens)).toEqual({
      width: 1200,
      height: 800,
      maximized: true,
    });
    expect(visibleBounds(undefined, screens)).toEqual(DEFAULT_BOUNDS);
  });

  it('saves the normal bounds and whether the window was maximized', () => {
    expect(
      boundsToSave({
        getNormalBounds: () => ({ x: 1, y: 2, width: 3, height: 4 }),
        isMaximized: () => true,
      } as never),
    ).toEqual({ x: 1, y: 2, width: 3, height: 4, maximized: true });
  });
});

describe('lockDown', () => {
  it('denies new windows and navigation away from our page', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
    let openHandler: (() => { action: string }) | null = null;
    lockDown(
      {
        on: (name: string, listener: never) => listeners.set(name, listener),
        setWindowOpenHandler: (handler: never) => (openHandler = handler),
      } as never,
      (url) => url.startsWith('file:///app/'),
    );
    expect(openHandler!()).toEqual({ action: 'deny' });
    const attempt = (name: string, url?: string) => {
      let prevented = false;
      listeners.get(name)!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(attempt('will-navigate', 'file:///app/index.html')).toBe(false);
    expect(attempt('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(attempt('will-attach-webview')).toBe(true);
  });
});
