import { join, posix, win32 } from 'node:path';

// Where Adbatch keeps its queue, accounts and state: one folder per user that the app and the CLI agree
// on, on every platform, so that `adbatch status` shows the app's batches and `adbatch resume` finishes
// them. ADBATCH_DATA_DIR overrides it for both.
//
// Guess (docs/architecture.md): the platform's per-user application data folder, named as the app is
// named on each platform: Application Support/Adbatch on macOS, %APPDATA%\Adbatch on Windows, and
// $XDG_DATA_HOME/adbatch (~/.local/share/adbatch) on Linux, where the queue is data, not configuration.

export interface PlatformFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

export function defaultDataDir({ platform, env, home }: PlatformFacts): string {
  if (env.ADBATCH_DATA_DIR) return env.ADBATCH_DATA_DIR;
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Adbatch');
  if (platform === 'win32')
    return win32.join(env.APPDATA ?? win32.join(home, 'AppData', 'Roaming'), 'Adbatch');
  return posix.join(env.XDG_DATA_HOME || posix.join(home, '.local', 'share'), 'adbatch');
}

/**
 * Where results land unless the user chose another folder: Adbatch in the user's Pictures, where designers
 * look first. ADBATCH_LIBRARY overrides it for both front ends.
 */
export function defaultLibraryDir(pictures: string, env: NodeJS.ProcessEnv): string {
  return env.ADBATCH_LIBRARY ?? join(pictures, 'Adbatch');
}
