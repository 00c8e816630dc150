import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// A newcomer's habitual `npm install` must leave package-lock.json as the clone has it (issue 31, point 8).
// npm marks a package that runs a script when installed (`hasInstallScript`) from its files, which a lock
// written from an install that had them already (npm ci) lacks: a fresh install then adds the mark, and the
// lock changes. So the lock carries the mark wherever npm would write it; the `libc` fields npm 11 writes
// stay too (npm 10 drops them, and without them npm installs the musl builds as well: about 113 MB).

const ROOT = resolve(__dirname, '../..');
const lockEntry = z.object({
  hasInstallScript: z.boolean().optional(),
  libc: z.array(z.string()).optional(),
});
const lock = z
  .object({ packages: z.record(z.string(), lockEntry) })
  .parse(JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')));
// A package whose scripts are no object (one has an array) has none, as npm reads it.
const manifest = z.object({ scripts: z.record(z.string(), z.unknown()).catch({}).optional() });

/** npm's rule: an install, preinstall or postinstall script, or a binding.gyp (built by node-gyp). */
function runsAnInstallScript(folder: string): boolean {
  const { scripts = {} } = manifest.parse(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')));
  return (
    Boolean(scripts.install || scripts.preinstall || scripts.postinstall) ||
    existsSync(join(folder, 'binding.gyp'))
  );
}

describe('package-lock.json', () => {
  it('marks every installed package that runs a script when installed, as a fresh npm install would', () => {
    const installed = Object.keys(lock.packages).filter(
      (path) => path.startsWith('node_modules/') && existsSync(join(ROOT, path, 'package.json')),
    );
    const unmarked = installed.filter(
      (path) => runsAnInstallScript(join(ROOT, path)) && lock.packages[path]?.hasInstallScript !== true,
    );
    expect(unmarked).toEqual([]);
    expect(lock.packages['node_modules/better-sqlite3']?.hasInstallScript).toBe(true);
  });

  it("keeps the platform builds' libc fields, so npm installs no musl build on glibc", () => {
    const withLibc = Object.values(lock.packages).filter((entry) => entry.libc !== undefined);
    expect(withLibc.length).toBeGreaterThan(0);
  });
});
