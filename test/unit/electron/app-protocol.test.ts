import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  registerAppProtocol,
} from '../../../src-main/electron/app-protocol.ts';
import { servedScheme } from '../../support/protocol-fake.ts';

// Electron's protocol and net are faked (net.fetch reads the real files); the handler runs as Electron would
// run it, over a real folder laid out like out/renderer, with a file beside it that must never be served.

let dir: string;
let root: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-app-protocol-'));
  root = join(dir, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Adbatch</title>');
  await writeFile(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(join(root, 'notes.md'), 'not part of the bundle');
  await writeFile(join(dir, 'secret.txt'), 'outside the renderer');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const setUp = () => servedScheme(APP_SCHEME, (protocol, net) => registerAppProtocol(protocol, net, root));

describe('the app:// protocol', () => {
  it('is registered privileged like a web origin: standard, secure, fetch', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    });
    expect(APP_ENTRY_URL).toBe('app://adbatch/index.html');
  });

  it('serves the built renderer with its content types', async () => {
    const { get } = setUp();
    for (const url of [APP_ENTRY_URL, 'app://adbatch/']) {
      const page = await get(url);
      expect(page.status, url).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<title>Adbatch</title>');
    }
    const script = await get('app://adbatch/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toBe('console.log(1)');
  });

  it('refuses paths out of the renderer folder, other hosts, other methods and unknown kinds of file', async () => {
    const { fetched, get } = setUp();
    for (const url of [
      'app://adbatch/../secret.txt',
      'app://adbatch/%2e%2e/secret.txt',
      'app://adbatch/assets/..%2f..%2fsecret.txt',
      'app://adbatch/%2E%2E%2Fsecret.txt',
      'app://adbatch/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      `app://adbatch/${encodeURIComponent(join(dir, 'secret.txt'))}`,
      'app://adbatch/index.html%00.js',
      'app://adbatch/%E0%A4%A',
      'app://evil/index.html',
      'app://adbatch.evil/index.html',
      'app://adbatch/notes.md',
      'app://adbatch/missing.js',
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('outside the renderer');
    }
    expect((await get(APP_ENTRY_URL, 'POST')).status).toBe(404);
    for (const path of fetched) expect(path.startsWith(root + sep), path).toBe(true);
  });
});
