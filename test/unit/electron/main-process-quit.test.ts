import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { databaseFile, fake, startMain, state, waitFor } from '../../support/electron-main-fake.ts';

// A quit that arrives while core is still starting (the user closes the window at once): core finishes
// starting, then stops, then the app quits. Stopping under a start in progress closed the database under it.

const MAIN = resolve(import.meta.dirname, '../../../out/main/index.js');

afterAll(async () => {
  if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
});

it('lets core finish starting, then stops it, then quits', async () => {
  if (!existsSync(MAIN)) throw new Error('out/main/index.js is missing: run `npm run build` first.');
  state.afterLoad = () => fake.electron.app.quit();
  await startMain(MAIN, await mkdtemp(join(tmpdir(), 'adbatch-main-quit-')));
  state.ready();
  await waitFor(() => state.ended, 'the quit');
  expect(state.quitCalls).toBe(2);
  expect(existsSync(`${databaseFile()}-wal`)).toBe(false);
  // Start-up's last step: had the quit not waited for the start, start-up would end here on a closed
  // database, and say so in the log.
  await waitFor(() => fake.electron.app.listeners.has('activate'), 'the end of start-up');
  expect(state.logs.filter((line) => line.startsWith('error'))).toEqual([]);
});
