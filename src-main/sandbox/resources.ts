import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file of `resources/`, wherever this code runs from: the source tree (tsx, tests), the built app
 * (`out/main`, one bundle), or a packaged app (Electron's resources folder). Found by walking up from this
 * module to the nearest folder that has it.
 */
export function resourceFile(relativePath: string): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, relativePath))) return join(packaged, relativePath);
  let dir = dirname(fileURLToPath(import.meta.url));
  while (true) {
    const candidate = join(dir, 'resources', relativePath);
    if (existsSync(candidate)) return candidate;
    const parent = resolve(dir, '..');
    if (parent === dir) throw new Error(`resources/${relativePath} is missing from this installation`);
    dir = parent;
  }
}
