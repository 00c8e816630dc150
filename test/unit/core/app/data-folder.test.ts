import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../src-main/core/app/data-folder.ts';

// The app and the CLI call the same function for their data folder; these pins are the paths users and
// their scripts rely on, per platform.

describe('the default data folder, shared by the app and the CLI', () => {
  it.each([
    ['darwin', {}, '/Users/ana', '/Users/ana/Library/Application Support/Adbatch'],
    ['linux', {}, '/home/ana', '/home/ana/.local/share/adbatch'],
    ['linux', { XDG_DATA_HOME: '/data/ana' }, '/home/ana', '/data/ana/adbatch'],
    [
      'win32',
      { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' },
      'C:\\Users\\ana',
      'C:\\Users\\ana\\AppData\\Roaming\\Adbatch',
    ],
    ['win32', {}, 'C:\\Users\\ana', 'C:\\Users\\ana\\AppData\\Roaming\\Adbatch'],
    ['darwin', { ADBATCH_DATA_DIR: '/Volumes/work/adbatch' }, '/Users/ana', '/Volumes/work/adbatch'],
  ] as const)('%s %j -> %s', (platform, env, home, expected) => {
    expect(defaultDataDir({ platform, env, home })).toBe(expected);
  });
});
