import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';
import { fileNet } from './protocol-fake.ts';

// A stand-in for Electron's main-process modules, recording what the built main process does with them, so
// that out/main/index.js can be started under vitest (test/unit/electron/main-process*.test.ts). startMain
// puts the modules below in place of 'electron', 'electron-log/main' and 'electron-store'; each test file has
// its own instance of this module, so its own state.

type Listener = (...args: never[]) => unknown;

function create() {
  const emitter = () => {
    const listeners = new Map<string, Listener[]>();
    return {
      listeners,
      on(name: string, listener: Listener) {
        listeners.set(name, [...(listeners.get(name) ?? []), listener]);
        return this;
      },
      once(name: string, listener: Listener) {
        return this.on(name, listener);
      },
      emit(name: string, ...args: unknown[]) {
        for (const listener of listeners.get(name) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
      },
    };
  };
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const state = {
    dataDir: '',
    ready,
    ended: false,
    quitCalls: 0,
    /** app.exit's code, once called. */
    exitCode: null as number | null,
    errorBoxes: [] as Array<{ title: string; message: string }>,
    privileged: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
    protocols: new Map<string, (request: Request) => Promise<Response>>(),
    ipc: new Map<string, (event: unknown, args: unknown) => unknown>(),
    session: {} as Record<string, Listener>,
    windows: [] as Array<{
      options: Record<string, unknown>;
      loaded: string[];
      contents: ReturnType<typeof emitter> & Record<string, unknown>;
    }>,
    logs: [] as string[],
    /** Paths the app set (app.setPath), as Electron keeps them. */
    paths: new Map<string, string>(),
    /** Called as soon as the current task ends after the window starts loading its page: while core starts. */
    afterLoad: null as (() => void) | null,
    /** What the OS open dialog answers, and the options of each call (with whether a window was its parent). */
    openDialogAnswer: { canceled: true, filePaths: [] as string[] },
    openDialogs: [] as Array<{ parent: boolean; options: Record<string, unknown> }>,
    /** Paths shown selected in the file manager. */
    shownItems: [] as string[],
  };
  const app = Object.assign(emitter(), {
    name: 'Adbatch',
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => whenReady,
    getPath: (name: string) => state.paths.get(name) ?? `${state.dataDir}/${name}`,
    setPath: (name: string, path: string) => void state.paths.set(name, path),
    getVersion: () => '0.0.0-test',
    exit(code = 0) {
      state.exitCode = code;
      state.ended = true;
    },
    quit() {
      state.quitCalls++;
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) state.ended = true;
    },
  });
  class BrowserWindow {
    static getAllWindows = () => state.windows;
    readonly webContents: ReturnType<typeof emitter> & Record<string, unknown>;
    private readonly events = emitter();
    constructor(options: Record<string, unknown>) {
      const contents = Object.assign(emitter(), {
        mainFrame: { url: '' },
        openHandler: null as Listener | null,
        setWindowOpenHandler(handler: Listener) {
          contents.openHandler = handler;
        },
        send: () => {},
      });
      this.webContents = contents;
      state.windows.push({ options, loaded: [], contents });
    }
    on(name: string, listener: Listener) {
      this.events.on(name, listener);
      return this;
    }
    once(name: string, listener: Listener) {
      return this.on(name, listener);
    }
    async loadURL(url: string) {
      state.windows.at(-1)!.loaded.push(url);
      (this.webContents.mainFrame as { url: string }).url = url;
      if (state.afterLoad) queueMicrotask(state.afterLoad);
    }
    show() {}
    maximize() {}
    isDestroyed = () => false;
    setProgressBar() {}
  }
  const electron = {
    app,
    BrowserWindow,
    dialog: {
      showOpenDialog: async (...args: unknown[]) => {
        state.openDialogs.push({
          parent: args.length === 2,
          options: args.at(-1) as Record<string, unknown>,
        });
        return state.openDialogAnswer;
      },
      showErrorBox: (title: string, message: string) => void state.errorBoxes.push({ title, message }),
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, args: unknown) => unknown) =>
        state.ipc.set(channel, handler),
      removeHandler: (channel: string) => state.ipc.delete(channel),
    },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: () => {} },
    Notification: Object.assign(class {}, { isSupported: () => false }),
    net: fileNet(),
    protocol: {
      registerSchemesAsPrivileged: (schemes: typeof state.privileged) => state.privileged.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        state.protocols.set(scheme, handler),
    },
    safeStorage: { isEncryptionAvailable: () => false, getSelectedStorageBackend: () => 'basic_text' },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: Listener) => (state.session.request = handler),
        setPermissionCheckHandler: (handler: Listener) => (state.session.check = handler),
        setDevicePermissionHandler: (handler: Listener) => (state.session.device = handler),
      },
    },
    shell: { openPath: async () => '', showItemInFolder: (path: string) => void state.shownItems.push(path) },
    nativeImage: {
      createFromPath: () => ({ isEmpty: () => true }),
      createFromDataURL: (url: string) => ({ isEmpty: () => false, url }),
    },
  };
  return { state, electron };
}

export const fake = create();
export const { state } = fake;

export const electronLogModule = {
  default: {
    info: (message: string) => state.logs.push(`info ${message}`),
    warn: (message: string) => state.logs.push(`warn ${message}`),
    error: (message: string) => state.logs.push(`error ${message}`),
  },
};

export const electronStoreModule = {
  default: class {
    private readonly values = new Map<string, unknown>();
    get = (key: string) => this.values.get(key);
    set = (key: string, value: unknown) => this.values.set(key, value);
  },
};

export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts the built main process against the stand-in, with its data under `dataDir`. Once per test file:
 * the main process is a module, run when first imported.
 */
export async function startMain(main: string, dataDir: string): Promise<void> {
  state.dataDir = dataDir;
  delete process.env.ELECTRON_RENDERER_URL;
  // Not hoisted, unlike vi.mock: they apply to the import below, the first of these modules in this file.
  vi.doMock('electron', () => ({ ...fake.electron, default: fake.electron }));
  vi.doMock('electron-log/main', () => electronLogModule);
  vi.doMock('electron-store', () => electronStoreModule);
  await import(/* @vite-ignore */ pathToFileURL(main).href);
}

/**
 * The database file the started app opened: wherever under `dataDir` the app keeps its data folder (every
 * Electron path the stand-in answers lies under it).
 */
export function databaseFile(): string {
  const found = readdirSync(state.dataDir, { recursive: true, encoding: 'utf8' }).find((path) =>
    path.endsWith('adbatch.db'),
  );
  if (!found) throw new Error(`no adbatch.db under ${state.dataDir}`);
  return join(state.dataDir, found);
}
