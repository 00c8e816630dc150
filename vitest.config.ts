import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // require('electron') outside Electron tries to download the binary and throws: tests get fakes.
    alias: { electron: resolve(import.meta.dirname, 'test/support/electron-fake.ts') },
  },
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A poll waits for what a loaded 2-core CI machine may take seconds to show (a bucket checked, a page
    // of results committed); vitest's 1 s default failed such waits while the machine ran other work.
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
});
