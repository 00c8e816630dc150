import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_SCHEME, registerAppProtocol } from '../../../src-main/electron/app-protocol.ts';
import { trustedSender } from '../../../src-main/electron/ipc.ts';
import { sameOriginAs } from '../../../src-main/electron/own-origin.ts';
import { denyAllPermissions } from '../../../src-main/electron/permissions.ts';
import { lockDown, windowOptions } from '../../../src-main/electron/window.ts';
import { type LintDiagnostic, lintInCopy, ROOT } from '../../support/lint-copy.ts';
import { servedScheme } from '../../support/protocol-fake.ts';

// Our equivalent of electronegativity (its last release cannot start under current Node and phones home for
// translations), in two halves. What can be read off the code is a lint rule (biome.json and lint/*.grit),
// proved here to fire on each dangerous pattern; what the app does is checked on the real parts: the window
// options object, lockDown, the trusted-sender check and the permission handlers with fake webContents, and
// the built renderer and preload as they ship.

const OWN = sameOriginAs(APP_ENTRY_URL);

function built(path: string): string {
  const file = join(ROOT, path);
  if (!existsSync(file)) throw new Error(`${path} is missing: run \`npm run build\` first.`);
  return readFileSync(file, 'utf8');
}

describe('lint rules', () => {
  // Each file is laid where its rule applies, in a copy of our Biome setup; each must draw exactly the
  // diagnostic named, at its line.
  const IMPORT = 'lint/style/noRestrictedImports';
  const cases: Array<[path: string, code: string, rule: 'plugin' | typeof IMPORT]> = [
    ['src-main/electron/a.ts', 'export const o = { nodeIntegration: true };', 'plugin'],
    ['src-main/electron/b.ts', 'export const o = { nodeIntegrationInWorker: true };', 'plugin'],
    ['src-main/electron/c.ts', "export const o = { 'nodeIntegrationInSubFrames': true };", 'plugin'],
    ['src-main/electron/d.ts', 'export const o = { contextIsolation: false };', 'plugin'],
    ['src-main/electron/e.ts', 'export const o = (on: boolean) => ({ sandbox: on });', 'plugin'],
    ['src-main/electron/f.ts', 'export const o = { webSecurity: false };', 'plugin'],
    ['src-main/electron/g.ts', 'export const o = { allowRunningInsecureContent: true };', 'plugin'],
    ['src-main/electron/h.ts', 'export const o = { experimentalFeatures: true };', 'plugin'],
    ['src-main/electron/i.ts', "export const o = { enableBlinkFeatures: 'CSSPaint' };", 'plugin'],
    ['src-main/electron/j.ts', 'export const o = { webviewTag: true };', 'plugin'],
    ['src-main/index.ts', 'shell.openExternal(url);', 'plugin'],
    ['src-main/electron/k.ts', 'window.webContents.openDevTools();', 'plugin'],
    ['src-main/electron/l.ts', 'session.setPermissionRequestHandler(null);', 'plugin'],
    ['src-main/index.ts', "app.commandLine.appendSwitch('ignore-certificate-errors');", 'plugin'],
    ['src-main/index.ts', "void window.loadFile('out/renderer/index.html');", 'plugin'],
    ['src-main/index.ts', 'export const w = new BrowserWindow({ width: 800 });', 'plugin'],
    ['src-preload/a.ts', "contextBridge.exposeInMainWorld('ipc', ipcRenderer);", 'plugin'],
    ['src-preload/b.ts', "contextBridge.exposeInMainWorld('ipc', { send: ipcRenderer.send });", 'plugin'],
    ['src-preload/b.ts', "contextBridge.exposeInMainWorld('ipc', { ipcRenderer });", 'plugin'],
    [
      'src-preload/b.ts',
      "contextBridge.exposeInMainWorld('ipc', { send: ipcRenderer.send.bind(ipcRenderer) });",
      'plugin',
    ],
    ['src-main/core/a.ts', "import { app } from 'electron';\nexport { app };", IMPORT],
    ['src-main/cli/a.ts', "import { app } from 'electron';\nexport { app };", IMPORT],
    ['src-main/sandbox/a.ts', "export { net } from 'electron';", IMPORT],
    ['src-renderer/src/a.ts', "export { ipcRenderer } from 'electron';", IMPORT],
    ['bin/a.ts', "export { app } from 'electron';", IMPORT],
    ['src-main/electron/m.ts', "export { BrowserWindow } from '@electron/remote';", IMPORT],
    ['src-preload/c.ts', "export { getGlobal } from '@electron/remote';", IMPORT],
  ];
  // What the shell does write: no diagnostic.
  const clean = `import { BrowserWindow, contextBridge } from 'electron';
// nodeIntegration: true, sandbox: false and openExternal( in a comment are not code.
declare const windowOptions: (preload: string, bounds: object) => never;
export const w = new BrowserWindow(windowOptions('/preload.cjs', {}));
export const o = { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true };
contextBridge.exposeInMainWorld('adbatch', { invoke: () => null });
`;
  // A bridge written inline: functions that call ipcRenderer's methods, which is what a bridge is.
  const cleanPreload = `import { contextBridge, ipcRenderer } from 'electron';
contextBridge.exposeInMainWorld('adbatch', {
  invoke: (channel: string, args: unknown) => ipcRenderer.invoke(channel, args),
  on: (listener: () => void) => {
    ipcRenderer.on('adbatch:event', listener);
    return () => ipcRenderer.removeListener('adbatch:event', listener);
  },
});
`;

  let diagnostics: LintDiagnostic[];
  const expected: string[] = [];

  beforeAll(async () => {
    const files = new Map<string, string[]>([
      ['src-main/electron/clean.ts', [clean]],
      ['src-preload/clean.ts', [cleanPreload]],
    ]);
    for (const [path, code, rule] of cases) {
      const before = files.get(path) ?? [];
      expected.push(`${path}:${before.join('\n').split('\n').length + (before.length ? 1 : 0)} ${rule}`);
      files.set(path, [...before, code]);
    }
    diagnostics = await lintInCopy(new Map([...files].map(([path, codes]) => [path, codes.join('\n')])));
  });

  it('refuse every dangerous web preference, call, bridge and import where it would run, and nothing else', () => {
    const found = diagnostics.map(
      (diagnostic) => `${diagnostic.path}:${diagnostic.line} ${diagnostic.category}`,
    );
    expect(found.sort()).toEqual(expected.sort());
  });
});

describe('the window', () => {
  it('is built with isolation on and Node off, literally, whatever the bounds', () => {
    const preload = '/app/out/preload/index.cjs';
    for (const bounds of [
      { width: 1280, height: 820 },
      { x: 10, y: 20, width: 1000, height: 700 },
      { x: 5, y: 5, width: 960, height: 600, maximized: true },
    ]) {
      const options = windowOptions(preload, bounds);
      const { maximized: _, ...place } = bounds;
      expect(options).toMatchObject({ ...place, show: false });
      const preferences = options.webPreferences!;
      expect(preferences).toMatchObject({
        preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      });
      for (const risky of ['nodeIntegrationInSubFrames', 'experimentalFeatures', 'enableBlinkFeatures'])
        expect(preferences, risky).not.toHaveProperty(risky);
    }
  });

  it('stays on our page: no navigation or redirect elsewhere, no new window, no webview', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | null = null;
    lockDown(
      {
        on: (name: string, listener: never) => listeners.set(name, listener),
        setWindowOpenHandler: (handler: never) => (openHandler = handler),
      } as never,
      OWN,
    );
    const prevented = (name: string, url?: string) => {
      let stopped = false;
      listeners.get(name)!({ preventDefault: () => (stopped = true) }, url);
      return stopped;
    };
    for (const url of [
      'https://evil.example/',
      'file:///home/someone/Downloads/renderer/index.html',
      'app://adbatch.evil.example/index.html',
      'http://127.0.0.1:5173/',
      'javascript:alert(1)',
    ]) {
      expect(prevented('will-navigate', url), url).toBe(true);
      expect(prevented('will-redirect', url), url).toBe(true);
      expect(openHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(prevented('will-navigate', 'app://adbatch/index.html#/settings')).toBe(false);
    expect(openHandler!({ url: APP_ENTRY_URL })).toEqual({ action: 'deny' });
    expect(prevented('will-attach-webview')).toBe(true);
  });

  it('grants no web permission', () => {
    const answers: unknown[] = [];
    denyAllPermissions({
      setPermissionRequestHandler: (handler: (...args: unknown[]) => void) =>
        handler({}, 'media', (granted: boolean) => answers.push(granted)),
      setPermissionCheckHandler: (handler: (...args: unknown[]) => unknown) =>
        answers.push(handler({}, 'clipboard-read', APP_ENTRY_URL)),
      setDevicePermissionHandler: (handler: (...args: unknown[]) => unknown) =>
        answers.push(handler({ deviceType: 'hid' })),
    } as never);
    expect(answers).toEqual([false, false, false]);
  });
});

describe('IPC', () => {
  it('answers only the main frame of our window on app://adbatch', () => {
    const frame = (url: string) => ({ url });
    const contents = { mainFrame: frame(APP_ENTRY_URL) };
    const check = trustedSender(() => contents as never, OWN);
    expect(check({ sender: contents, senderFrame: contents.mainFrame } as never)).toBe(true);
    // A subframe of our own page, another window, and our window once navigated to a lookalike.
    expect(check({ sender: contents, senderFrame: frame(APP_ENTRY_URL) } as never)).toBe(false);
    expect(
      check({ sender: { mainFrame: frame(APP_ENTRY_URL) }, senderFrame: contents.mainFrame } as never),
    ).toBe(false);
    for (const url of [
      'file:///tmp/renderer/index.html',
      'app://adbatch.evil/index.html',
      'https://adbatch/',
    ]) {
      const moved = { mainFrame: frame(url) };
      expect(
        trustedSender(() => moved as never, OWN)({ sender: moved, senderFrame: moved.mainFrame } as never),
        url,
      ).toBe(false);
    }
  });
});

describe('the built renderer (out/renderer)', () => {
  const html = () => built('out/renderer/index.html');

  it('has one CSP, before any script: no inline or eval script, no plugins, nothing from elsewhere but images', () => {
    const page = html();
    const metas = [...page.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/g)];
    expect(metas).toHaveLength(1);
    expect(metas[0]!.index).toBeLessThan(page.indexOf('<script'));
    const csp = metas[0]![1]!;
    const directives = Object.fromEntries(
      csp.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe-eval');
    // Images alone may come from elsewhere: catalog photos (https) and the sandbox's model presets (loopback).
    expect(directives['img-src']).toEqual([
      "'self'",
      'data:',
      'adbatch-media:',
      'https:',
      'http://127.0.0.1:*',
    ]);
    for (const [name, values] of Object.entries(directives)) {
      if (name !== 'img-src') expect((values as string[]).join(' '), name).not.toMatch(/\*|https?:/);
    }
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('carries no WebSocket transport: the app reaches main through the preload bridge only', () => {
    const assets = join(ROOT, 'out/renderer/assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = readFileSync(join(assets, name), 'utf8');
      expect(code, name).not.toContain('WebSocket');
      expect(code, name).not.toContain('/ipc');
    }
  });

  it('is served whole through app://adbatch/', async () => {
    const { get } = servedScheme(APP_SCHEME, (protocol, net) =>
      registerAppProtocol(protocol, net, join(ROOT, 'out/renderer')),
    );
    const page = await get(APP_ENTRY_URL);
    const body = await page.text();
    const assets = [...body.matchAll(/(?:src|href)="(\.\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await get(new URL(asset, APP_ENTRY_URL).href);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css)/);
    }
  });
});

describe('the built preload (out/preload/index.cjs)', () => {
  function runPreload() {
    const exposed: Record<string, Record<string, unknown>> = {};
    const required: string[] = [];
    const sent: unknown[][] = [];
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const ipcRenderer = {
      invoke: (...args: unknown[]) => {
        sent.push(args);
        return Promise.resolve({ ok: true, value: null });
      },
      on: (channel: string, listener: (...args: unknown[]) => void) =>
        listeners.set(channel, new Set([...(listeners.get(channel) ?? []), listener])),
      removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
        listeners.get(channel)?.delete(listener),
      send: () => {},
    };
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Record<string, unknown>) => (exposed[key] = api),
      },
      ipcRenderer,
      webUtils: { getPathForFile: (file: { path: string }) => file.path },
    };
    // A sandboxed preload gets a require that knows electron (and a few built-ins we do not use) only.
    const sandboxedRequire = (id: string) => {
      required.push(id);
      if (id === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${id}`);
    };
    runInNewContext(built('out/preload/index.cjs'), { require: sandboxedRequire, module: { exports: {} } });
    return { exposed, required, sent, listeners, ipcRenderer };
  }

  it('requires electron alone and exposes one bridge of three functions, no ipcRenderer', () => {
    const { exposed, required, ipcRenderer } = runPreload();
    expect(required).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['adbatch']);
    const bridge = exposed.adbatch!;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'pathsForFiles']);
    const raw = new Set<unknown>([ipcRenderer, ...Object.values(ipcRenderer)]);
    for (const [name, value] of Object.entries(bridge)) {
      expect(typeof value, name).toBe('function');
      expect(raw.has(value), name).toBe(false);
    }
  });

  it("passes calls through and hands the page's callbacks the payload only, never Electron's event", () => {
    const { exposed, sent, listeners } = runPreload();
    const bridge = exposed.adbatch as {
      invoke(channel: string, args: unknown): Promise<unknown>;
      on(event: string, callback: (payload: unknown) => void): () => void;
    };
    void bridge.invoke('batches:get', { id: 'b1' });
    expect(sent).toEqual([['batches:get', { id: 'b1' }]]);

    const received: unknown[][] = [];
    const off = bridge.on('batches:changed', (...args) => received.push(args));
    const [listener] = [...listeners.get('adbatch:event')!];
    const electronEvent = { sender: { send() {} }, ports: [] };
    listener!(electronEvent, { event: 'batches:changed', payload: { id: 'b1' } });
    listener!(electronEvent, { event: 'app:command', payload: { command: 'settings' } });
    expect(received).toEqual([[{ id: 'b1' }]]);
    off();
    expect(listeners.get('adbatch:event')!.size).toBe(0);
  });
});
