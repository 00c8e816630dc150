import type { Preferences } from '../core/create-core.ts';
import type { WindowBounds } from './window.ts';

// Preferences in electron-store (a JSON file in userData): settings and the window's place. Nothing secret
// lives here; keys are sealed in the database.

export interface PreferenceFile {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export interface AppPreferences extends Preferences {
  windowBounds(): WindowBounds | undefined;
  saveWindowBounds(bounds: WindowBounds): void;
}

function isBounds(value: unknown): value is WindowBounds {
  const bounds = value as WindowBounds | null;
  return (
    typeof bounds === 'object' &&
    bounds !== null &&
    Number.isFinite(bounds.width) &&
    Number.isFinite(bounds.height) &&
    bounds.width > 0 &&
    bounds.height > 0
  );
}

export function appPreferences(file: PreferenceFile): AppPreferences {
  return {
    // Handed to core as saved: core parses them field by field, a damaged field back to its default.
    read: () => {
      const saved = file.get('settings');
      return typeof saved === 'object' && saved !== null ? saved : {};
    },
    write: (settings) => file.set('settings', settings),
    windowBounds: () => {
      const saved = file.get('windowBounds');
      return isBounds(saved) ? saved : undefined;
    },
    saveWindowBounds: (bounds) => file.set('windowBounds', bounds),
  };
}
