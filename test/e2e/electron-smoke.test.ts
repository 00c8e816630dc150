import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

// The real Electron app, launched by Playwright, where the Electron binary exists. Our build machines cannot
// download it (`npm install` fetches it only on first launch, and that host is unreachable here), so the
// test says so and skips; on a developer's machine with Electron it runs.

const ROOT = resolve(import.meta.dirname, '../..');

function electronBinary(): string | null {
  const packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();

describe.skipIf(!binary)(
  `the Electron app${binary ? '' : ' (skipped: the Electron binary is not installed on this machine)'}`,
  () => {
    it('opens one secure window on the Batches screen', async () => {
      const app = await electron.launch({ executablePath: binary!, args: [join(ROOT, 'out/main/index.js')] });
      try {
        const window = await app.firstWindow();
        await window.getByRole('heading', { name: 'Batches' }).waitFor();
        // No Node in the page, and the bridge is exactly the contract's three functions.
        const page = await window.evaluate(() => ({
          require: typeof (globalThis as { require?: unknown }).require,
          process: typeof (globalThis as { process?: unknown }).process,
          bridge: Object.keys((globalThis as { adbatch?: object }).adbatch ?? {}).sort(),
        }));
        expect(page).toEqual({
          require: 'undefined',
          process: 'undefined',
          bridge: ['invoke', 'on', 'pathsForFiles'],
        });
        expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
      } finally {
        await app.close();
      }
    });
  },
);
