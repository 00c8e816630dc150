import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { PreferenceFile } from '../electron/preferences.ts';

// The desktop app keeps its preferences in electron-store's file, preferences.json in the data folder: a
// JSON object by key ('settings', 'windowBounds'). The browser front end reads and writes the same file, so
// that Settings are the same in both, and kept across restarts (the browser harness kept them in memory:
// the margin for other apps and the CSV files' byte-order mark went back to their defaults at each start).

export const PREFERENCES_FILE = 'preferences.json';

const storeFile = z.record(z.string(), z.unknown());

function readAll(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  // Unreadable preferences are defaults, as electron-store treats them; the next save writes them whole.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const read = storeFile.safeParse(parsed);
  return read.success ? read.data : {};
}

/**
 * The file as electron-store's get/set, read again at each get (the desktop app may have written it since)
 * and written whole (a `.part` renamed into place), keeping the keys this front end does not use.
 */
export function jsonPreferenceFile(file: string): PreferenceFile {
  return {
    get: (key) => readAll(file)[key],
    set(key, value) {
      const next = { ...readAll(file), [key]: value };
      mkdirSync(dirname(file), { recursive: true });
      const part = `${file}.${randomBytes(6).toString('hex')}.part`;
      try {
        writeFileSync(part, `${JSON.stringify(next, null, '\t')}\n`);
        renameSync(part, file);
      } catch (error) {
        rmSync(part, { force: true });
        throw error;
      }
    },
  };
}
