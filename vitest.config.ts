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
  },
});
