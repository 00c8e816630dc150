import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src-main/shared/ipc.ts';
import { databaseFile, fake, startMain, state, waitFor } from '../../support/electron-main-fake.ts';

// The built main process (out/main/index.js) started against a stand-in for Electron's modules: the wiring
// that only src-main/index.ts does (what runs before ready, the session, the protocols, IPC, the window, the
// quit) observed from the outside, with the real core on a temporary data folder.

const ROOT = resolve(import.meta.dirname, '../../..');
const MAIN = join(ROOT, 'out/main/index.js');

type Listener = (...args: never[]) => unknown;

let checkedBeforeReady: { privileged: string[]; windows: number; ipc: number };

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error('out/main/index.js is missing: run `npm run build` first.');
  await startMain(MAIN, await mkdtemp(join(tmpdir(), 'adbatch-main-')));
  checkedBeforeReady = {
    privileged: state.privileged.map((scheme) => scheme.scheme),
    windows: state.windows.length,
    ipc: state.ipc.size,
  };
  state.ready();
  await waitFor(() => state.windows.length === 1 && state.ipc.size === CHANNELS.length, 'the window and IPC');
}, 30_000);

afterAll(async () => {
  if (!state.ended) fake.electron.app.quit();
  await waitFor(() => state.ended, 'the quit');
  if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
});

describe('the main process, started', () => {
  it('registers app: and adbatch-media: as privileged before ready, and nothing else happens before', () => {
    expect(checkedBeforeReady).toEqual({ privileged: ['app', 'adbatch-media'], windows: 0, ipc: 0 });
    expect(state.privileged.find((scheme) => scheme.scheme === 'app')!.privileges).toMatchObject({
      standard: true,
      secure: true,
      supportFetchAPI: true,
    });
  });

  it('denies every permission of the session', () => {
    const granted: boolean[] = [];
    (state.session.request as (...args: unknown[]) => void)({}, 'media', (answer: boolean) =>
      granted.push(answer),
    );
    expect(granted).toEqual([false]);
    expect((state.session.check as (...args: unknown[]) => unknown)({}, 'notifications')).toBe(false);
    expect((state.session.device as (...args: unknown[]) => unknown)({})).toBe(false);
  });

  it('opens one isolated window on app://adbatch/index.html, with the built preload, locked to our origin', () => {
    const [window] = state.windows;
    expect(window!.loaded).toEqual(['app://adbatch/index.html']);
    const preferences = window!.options.webPreferences as Record<string, unknown>;
    expect(preferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(existsSync(preferences.preload as string)).toBe(true);
    expect(preferences.preload).toBe(join(ROOT, 'out/preload/index.cjs'));

    const navigate = (url: string) => {
      let prevented = false;
      window!.contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///tmp/out/renderer/index.html')).toBe(true);
    expect(navigate('app://adbatch/index.html')).toBe(false);
    expect((window!.contents.openHandler as Listener as () => unknown)()).toEqual({ action: 'deny' });
  });

  it('serves the built renderer on app://adbatch/ and nothing outside it', async () => {
    const serve = state.protocols.get('app')!;
    const page = await serve(new Request('app://adbatch/index.html'));
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8'));
    expect((await serve(new Request('app://adbatch/..%2f..%2fpackage.json'))).status).toBe(404);
    expect(state.protocols.has('adbatch-media')).toBe(true);
  });

  it("answers IPC from the window's main frame on our page only", async () => {
    const contents = state.windows[0]!.contents as unknown as { mainFrame: { url: string } };
    const call = (senderFrame: unknown, sender: unknown = contents) =>
      state.ipc.get('batches:list')!({ sender, senderFrame }, undefined);
    expect(await call(contents.mainFrame)).toEqual({ ok: true, value: [] });
    expect(await call({ url: 'app://adbatch/index.html' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call(contents.mainFrame, {})).toMatchObject({ ok: false });
    contents.mainFrame.url = 'file:///tmp/renderer/index.html';
    expect(await call(contents.mainFrame)).toMatchObject({ ok: false });
    contents.mainFrame.url = 'app://adbatch/index.html';
  });

  it("asks the OS for an export's folder over the window, and refuses a drag naming no results", async () => {
    const contents = state.windows[0]!.contents as unknown as { mainFrame: { url: string } };
    const call = (channel: string, args: unknown) =>
      state.ipc.get(channel)!({ sender: contents, senderFrame: contents.mainFrame }, args);
    state.openDialogAnswer = { canceled: false, filePaths: ['/Users/ana/Exports'] };
    expect(await call('dialog:openFolder', undefined)).toEqual({ ok: true, value: '/Users/ana/Exports' });
    expect(state.openDialogs.at(-1)).toEqual({
      parent: true,
      options: expect.objectContaining({ properties: ['openDirectory', 'createDirectory'] }),
    });
    expect(await call('export:drag', { scope: { batchIds: ['b1'] }, files: ['/etc/passwd'] })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
  });

  it('holds the quit until core has stopped (its database closed), then quits', async () => {
    const wal = `${databaseFile()}-wal`;
    expect(existsSync(wal)).toBe(true);
    fake.electron.app.quit();
    expect(state.ended).toBe(false);
    await expect.poll(() => state.ended, { timeout: 10_000 }).toBe(true);
    expect(state.quitCalls).toBe(2);
    // SQLite removes the write-ahead log when its last connection closes: core.stop() ran to its end.
    expect(existsSync(wal)).toBe(false);
    expect(state.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
