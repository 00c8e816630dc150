import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  nativeImage,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import log from 'electron-log/main';
import Store from 'electron-store';
import { defaultDataDir } from './core/app/data-folder.ts';
import { callHandler } from './core/app/dispatch.ts';
import { rememberedLibrary } from './core/app/library-choice.ts';
import { SANDBOX_ACCOUNT_ID } from './core/app/public-api.ts';
import { type Core, createCore } from './core/create-core.ts';
import { APP_ENTRY_URL, APP_SCHEME_PRIVILEGES, registerAppProtocol } from './electron/app-protocol.ts';
import { exportDesktop } from './electron/export-desktop.ts';
import { EVENT_CHANNEL, forwardEvents, registerIpc, trustedSender } from './electron/ipc.ts';
import { redactedLogger } from './electron/logger.ts';
import { MEDIA_SCHEME_PRIVILEGES, mediaUrl, registerMediaProtocol } from './electron/media-protocol.ts';
import { menuTemplate } from './electron/menu.ts';
import { attachOsIntegration } from './electron/os-integration.ts';
import { sameOriginAs } from './electron/own-origin.ts';
import { denyAllPermissions } from './electron/permissions.ts';
import { appPreferences } from './electron/preferences.ts';
import { quitAfterStop } from './electron/quit.ts';
import { safeStorageBox } from './electron/safe-storage-box.ts';
import { statementPdf } from './electron/statement-pdf.ts';
import { boundsToSave, lockDown, visibleBounds, windowOptions } from './electron/window.ts';
import { startMcpHttp } from './mcp/http.ts';
import { startEmbeddedSandbox } from './sandbox/embedded.ts';
import type { BatchSummary } from './shared/models.ts';

// Electron lifecycle only: single instance, the window, menus, and core wired to IPC. Everything else is
// in core (plain Node) or in electron/ (small modules, each tested with Electron's modules injected).

protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES, MEDIA_SCHEME_PRIVILEGES]);

// The data folder the CLI uses too (core/app/data-folder.ts), set before anything reads userData, so the
// single-instance lock, preferences and the queue all live in it.
const dataDir = defaultDataDir({ platform: process.platform, env: process.env, home: app.getPath('home') });
app.setPath('userData', dataDir);

if (!app.requestSingleInstanceLock()) app.quit();

const logger = redactedLogger(log);
const preferences = appPreferences(new Store({ name: 'preferences' }));
let core: Core | null = null;
let mainWindow: BrowserWindow | null = null;

// electron-vite's dev server in development; a packaged app ignores the variable, or anyone who can set an
// environment variable could hand our IPC bridge to a page of theirs.
const rendererUrl = (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) || APP_ENTRY_URL;
const isOwnUrl = sameOriginAs(rendererUrl);

function sendToRenderer(payload: unknown): void {
  if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(EVENT_CHANNEL, payload);
}

async function chooseInputs(): Promise<string[]> {
  const options = {
    title: 'Choose product folders, photos or a catalog',
    properties: ['openDirectory', 'openFile', 'multiSelections'] as Array<
      'openDirectory' | 'openFile' | 'multiSelections'
    >,
  };
  const result = mainWindow
    ? await dialog.showOpenDialog(mainWindow, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? [] : result.filePaths;
}

async function chooseImage(): Promise<string | null> {
  const options = {
    title: 'Choose a logo',
    properties: ['openFile'] as Array<'openFile'>,
    filters: [{ name: 'Images', extensions: ['png', 'jpg', 'jpeg', 'webp'] }],
  };
  const result = mainWindow
    ? await dialog.showOpenDialog(mainWindow, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

function createMainWindow(): BrowserWindow {
  const bounds = visibleBounds(
    preferences.windowBounds(),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow(windowOptions(join(__dirname, '../preload/index.cjs'), bounds));
  lockDown(window.webContents, isOwnUrl);
  if (bounds.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => preferences.saveWindowBounds(boundsToSave(window)));
  void window.loadURL(rendererUrl);
  return window;
}

function installMenu(): void {
  const emit = (command: 'new-batch' | 'settings') =>
    sendToRenderer({ event: 'app:command', payload: { command } });
  const template = menuTemplate(process.platform, app.name, {
    newBatch: () => emit('new-batch'),
    settings: () => emit('settings'),
    openFolder: () =>
      void chooseInputs().then((inputs) => {
        if (inputs.length > 0) sendToRenderer({ event: 'app:command', payload: { command: 'scan', inputs } });
      }),
    revealLibrary: () => void core?.dispatch('library:reveal', {}),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

app.on('second-instance', () => {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// core.stop() waits for a start in progress itself (a quit can come while the window first opens).
quitAfterStop(
  app,
  async () => {
    await core?.stop();
  },
  (error) => logger.error('core did not stop cleanly', error),
);

// What stops the app from starting (a data folder on a full disk) is said in a dialog, then the app quits:
// never a silent exit, never a stack trace for the user to read.
void app
  .whenReady()
  .then(start)
  .catch((error: unknown) => {
    logger.error('Adbatch could not start', error);
    dialog.showErrorBox('Adbatch cannot start', (error as Error).message);
    app.exit(1);
  });

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  registerAppProtocol(protocol, net, join(__dirname, '../renderer'));
  core = createCore({
    dataDir,
    version: app.getVersion(),
    secrets: safeStorageBox(safeStorage, process.platform),
    preferences,
    // The library this data folder remembers (a first `adbatch run` may have chosen it), until Settings says.
    defaults: {
      libraryDir: rememberedLibrary(dataDir) ?? join(app.getPath('pictures'), 'Adbatch'),
      budgetMarginPercent: 0,
    },
    fileUrl: mediaUrl,
    startSandbox: async () => {
      const embedded = await startEmbeddedSandbox({
        dataDir,
        timeScale: 0.1,
        onError: (message, error) => logger.error(`sandbox: ${message}`, error),
      });
      return { url: embedded.url, apiKey: embedded.apiKey, close: () => embedded.sandbox.close() };
    },
    openDialog: chooseInputs,
    openImageDialog: chooseImage,
    revealFolder: async (path) => {
      const failure = await shell.openPath(path);
      if (failure) logger.warn(`could not show ${path}: ${failure}`);
      return failure || null;
    },
    ...exportDesktop({ dialog, shell, nativeImage }, () => mainWindow),
    printStatement: statementPdf({ dialog }, () => mainWindow),
    // The MCP tools over HTTP on 127.0.0.1 once turned on in Settings, on the same handler map as this window.
    serveAgents: (server) =>
      startMcpHttp({
        ...server,
        call: (channel, ...args) => callHandler(core!.dispatch, channel, args[0]),
        defaultAccountId: SANDBOX_ACCOUNT_ID,
        version: app.getVersion(),
      }),
    log: logger,
  });
  registerMediaProtocol(protocol, net, core.files);
  registerIpc(
    ipcMain,
    core.dispatch,
    trustedSender(() => mainWindow?.webContents ?? null, isOwnUrl),
  );
  forwardEvents(core.events, sendToRenderer);
  installMenu();
  mainWindow = createMainWindow();
  await core.start();
  const summaries = await core.dispatch('batches:list', undefined);
  attachOsIntegration(
    core.events,
    {
      setProgress: (fraction) => mainWindow?.setProgressBar(fraction),
      notify: (title, body) => {
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
    },
    summaries.ok ? (summaries.value as BatchSummary[]) : [],
  );
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
}
