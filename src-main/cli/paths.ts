import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the engine keeps its database and state: the platform's per-user application data folder. */
export function defaultDataDir(): string {
  if (process.env.ADBATCH_DATA_DIR) return process.env.ADBATCH_DATA_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Adbatch');
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Adbatch');
  return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'adbatch');
}

/** Where results land unless told otherwise: a folder in the user's Pictures, where designers look first. */
export function defaultLibraryDir(): string {
  if (process.env.ADBATCH_LIBRARY) return process.env.ADBATCH_LIBRARY;
  const pictures = join(homedir(), 'Pictures');
  return join(existsSync(pictures) ? pictures : homedir(), 'Adbatch');
}
