import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Our equivalent of electronegativity (its last release cannot start under current Node and phones home for
// translations): the checks it makes that apply to this app, over our own sources and the built CSP.

const ROOT = resolve(__dirname, '../../..');

async function sources(dir: string): Promise<Array<{ file: string; text: string }>> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
      .map(async (entry) => {
        const file = join(entry.parentPath, entry.name);
        // Comments may name a dangerous option to say it is not used: only code counts.
        const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
        return { file: file.slice(ROOT.length + 1), text: code };
      }),
  );
}

const DANGEROUS: Array<[RegExp, string]> = [
  [/nodeIntegration\s*:\s*true/, 'NODE_INTEGRATION_HTML_SINK / nodeIntegration enabled'],
  [/nodeIntegrationInWorker\s*:\s*true/, 'nodeIntegrationInWorker enabled'],
  [/nodeIntegrationInSubFrames\s*:\s*true/, 'nodeIntegrationInSubFrames enabled'],
  [/contextIsolation\s*:\s*false/, 'CONTEXT_ISOLATION_JS_CHECK / context isolation off'],
  [/sandbox\s*:\s*false/, 'SANDBOX_JS_CHECK / renderer sandbox off'],
  [/webSecurity\s*:\s*false/, 'WEB_SECURITY_JS_CHECK / web security off'],
  [/allowRunningInsecureContent\s*:\s*true/, 'INSECURE_CONTENT_JS_CHECK'],
  [/experimentalFeatures\s*:\s*true/, 'EXPERIMENTAL_FEATURES_JS_CHECK'],
  [/enableBlinkFeatures/, 'BLINK_FEATURES_JS_CHECK'],
  [/webviewTag\s*:\s*true/, 'webview tag enabled'],
  [/enableRemoteModule|@electron\/remote/, 'REMOTE_MODULE_JS_CHECK'],
  [/openExternal\s*\(/, 'OPEN_EXTERNAL_JS_CHECK: no URL from the renderer may reach shell.openExternal'],
  [/openDevTools\s*\(/, 'devtools opened in code'],
  [/setPermissionRequestHandler\s*\(\s*null/, 'PERMISSION_REQUEST_HANDLER_JS_CHECK: handler removed'],
  [/exposeInMainWorld\([^)]*ipcRenderer\s*[,)]/, 'raw ipcRenderer exposed to the renderer'],
  [/insecure-content|ignore-certificate-errors/, 'a weakening command-line switch'],
];

describe('Electron security audit', () => {
  it('finds no dangerous option, API or switch in main, preload or renderer', async () => {
    const findings: string[] = [];
    // Everything that runs in Electron: the shell, its modules, the preload and the renderer.
    for (const dir of ['src-main/electron', 'src-preload', 'src-renderer/src']) {
      for (const { file, text } of await sources(dir)) {
        for (const [pattern, check] of DANGEROUS) if (pattern.test(text)) findings.push(`${file}: ${check}`);
      }
    }
    const main = (await sources('src-main')).find((source) => source.file === join('src-main', 'index.ts'))!;
    for (const [pattern, check] of DANGEROUS)
      if (pattern.test(main.text)) findings.push(`src-main/index.ts: ${check}`);
    expect(findings).toEqual([]);
  });

  it('sets every protective option and handler in the shell', async () => {
    const window = await readFile(join(ROOT, 'src-main/electron/window.ts'), 'utf8');
    for (const option of [
      'contextIsolation: true',
      'sandbox: true',
      'nodeIntegration: false',
      'webSecurity: true',
    ]) {
      expect(window, option).toContain(option);
    }
    expect(window).toMatch(/setWindowOpenHandler\(\(\) => \(\{ action: 'deny' \}\)\)/);
    expect(window).toContain("'will-navigate'");
    const main = await readFile(join(ROOT, 'src-main/index.ts'), 'utf8');
    expect(main).toMatch(
      /setPermissionRequestHandler\(\(_contents, _permission, callback\) => callback\(false\)\)/,
    );
    expect(main).toContain('setPermissionCheckHandler(() => false)');
    expect(main).toContain('requestSingleInstanceLock');
    expect(main).toMatch(/registerIpc\(\s*ipcMain,\s*core\.dispatch,\s*trustedSender\(/);
  });

  it('ships a strict CSP: no inline or eval script, no plugins, nothing loaded from elsewhere but images', async () => {
    const html = await readFile(join(ROOT, 'src-renderer/index.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
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
  });
});
