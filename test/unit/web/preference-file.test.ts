import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appPreferences } from '../../../src-main/electron/preferences.ts';
import { jsonPreferenceFile } from '../../../src-main/web/preference-file.ts';

// app:web keeps Settings in the desktop app's preferences.json, beside what only the app writes there.

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-web-preferences-'));
  file = join(dir, 'preferences.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const settings = { libraryDir: '/x/Adbatch', budgetMarginPercent: 10, csvBom: false };

describe('the preferences file of app:web', () => {
  it("writes the settings where the app reads them, keeping the app's window place", async () => {
    const bounds = { x: 10, y: 20, width: 1280, height: 800, maximized: false };
    await writeFile(file, JSON.stringify({ windowBounds: bounds, settings: { libraryDir: '/old' } }));
    appPreferences(jsonPreferenceFile(file)).write(settings);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ windowBounds: bounds, settings });
    // Read again from the file, as a restart does.
    expect(appPreferences(jsonPreferenceFile(file)).read()).toEqual(settings);
  });

  it('reads no file, or one that is not JSON, as no preferences, and writes it whole again', async () => {
    const preferences = appPreferences(jsonPreferenceFile(file));
    expect(preferences.read()).toEqual({});
    await writeFile(file, '{"settings": {"libraryDir": ');
    expect(preferences.read()).toEqual({});
    preferences.write(settings);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ settings });
  });
});
