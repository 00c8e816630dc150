import { describe, expect, it } from 'vitest';
import { appPreferences } from '../../../src-main/electron/preferences.ts';

function memoryFile() {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key: string) => data.get(key),
    set: (key: string, value: unknown) => data.set(key, value),
  };
}

describe('appPreferences', () => {
  it('keeps settings and the window bounds, ignoring what is not valid', () => {
    const file = memoryFile();
    const prefs = appPreferences(file);
    expect(prefs.read()).toEqual({});
    expect(prefs.windowBounds()).toBeUndefined();
    prefs.write({ libraryDir: '/lib', budgetMarginPercent: 10 });
    prefs.saveWindowBounds({ x: 1, y: 2, width: 1000, height: 700 });
    expect(prefs.read()).toEqual({ libraryDir: '/lib', budgetMarginPercent: 10 });
    expect(prefs.windowBounds()).toEqual({ x: 1, y: 2, width: 1000, height: 700 });
    file.data.set('windowBounds', { width: -5, height: 'tall' });
    file.data.set('settings', 'garbage');
    expect(prefs.windowBounds()).toBeUndefined();
    expect(prefs.read()).toEqual({});
  });
});
