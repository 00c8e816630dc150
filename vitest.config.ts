import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Three projects, each isolated as its tests need, run as `vitest run` (all) or `--project <name>`:
//  - unit: no server, no child process worth the name: threads, which start cheaper than forks;
//  - integration: the real sandbox over HTTP on 127.0.0.1, the CLI as a child process, SQLite files: forks
//    (a native module or a child's signals stay in their own process), several at once, since most of their
//    time is spent waiting on the time-scaled sandbox, not on a core;
//  - e2e: the app in Debian's Chromium, one file at a time, in one process: a browser and the app's core use
//    both cores of CI's machine, and two files at once would starve each other. In one `vitest run` it
//    follows the other two (its own group: projects of one group must take the same number of workers).
// The benches' short runs (test/bench) go with integration, or with e2e for those that drive Chromium.
// `npm test` runs e2e beside the other two instead, as a second vitest (scripts/test-projects.mjs).

/** Files run at once in the unit and integration projects; e2e runs one. */
const PARALLEL_FILES = 3;

export default defineConfig({
  resolve: {
    // require('electron') outside Electron tries to download the binary and throws: tests get fakes.
    alias: { electron: resolve(import.meta.dirname, 'test/support/electron-fake.ts') },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits for what a loaded 2-core CI machine may take seconds to show (a bucket checked, a page
    // of results committed); vitest's 1 s default failed such waits while the machine ran other work.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    maxWorkers: PARALLEL_FILES,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads' } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/bench/core/*.test.ts'],
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/bench/ui-benches.test.ts'],
          pool: 'forks',
          maxWorkers: 1,
          // One process for all its files, one after the other: each file starts its own app on a folder
          // of its own (app-fixture.ts), and a fork per file paid the import of the whole app again.
          isolate: false,
          // A page shows what core answered once Chromium, the app's core and its sandbox have all had the
          // cores: on a loaded machine seconds, so a screen's step waits as long as Playwright's own (30 s).
          expect: { poll: { timeout: 30_000, interval: 50 } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
