import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { type AppServer, startAppServer } from '../harness/app-server.ts';
import { browserMissing, launchChromium } from './browser.ts';

// The browser harness drives real accounts once given a key, and any page the user visits may open a
// WebSocket to 127.0.0.1. Only a page of the harness's own origin holding this run's token gets in.

let app: AppServer;
let token: string;

beforeAll(async () => {
  app = await startAppServer();
  token = new URLSearchParams(new URL(app.url).hash.slice(1)).get('token')!;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** Opens /ipc as a client would; 'open' with the answer to one call, or the HTTP status it was refused with. */
function connect(
  query: string,
  headers: { origin?: string; host?: string },
): Promise<{ open: true; reply: unknown } | { open: false; status: number }> {
  const ws = new NodeWebSocket(`${app.origin.replace('http:', 'ws:')}/ipc${query}`, {
    ...(headers.origin ? { origin: headers.origin } : {}),
    ...(headers.host ? { headers: { host: headers.host } } : {}),
  });
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      resolve({ open: false, status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'batches:list', args: undefined })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.id !== 1) return;
      resolve({ open: true, reply: message.reply });
      ws.close();
    });
  });
}

describe('the browser harness lets in only its own page', () => {
  it('prints a URL on 127.0.0.1 that carries a random token in its fragment', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    expect(app.url.startsWith(`${app.origin}/`)).toBe(true);
  });

  it('answers calls from its own origin with the token', async () => {
    expect(await connect(`?token=${token}`, { origin: app.origin })).toEqual({
      open: true,
      reply: { ok: true, value: [] },
    });
  });

  it('refuses a foreign origin, a missing origin, a missing or wrong token, and a foreign host name', async () => {
    const port = new URL(app.origin).port;
    // One character changed, whatever the token ends with (a fixed 'A' is the same token once in 64 runs).
    const wrongToken = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Array<[string, string, { origin?: string; host?: string }, number]> = [
      ['a foreign origin with the token', `?token=${token}`, { origin: 'https://evil.example' }, 403],
      ['another port of 127.0.0.1', `?token=${token}`, { origin: 'http://127.0.0.1:1' }, 403],
      ['localhost for 127.0.0.1', `?token=${token}`, { origin: `http://localhost:${port}` }, 403],
      ['no origin (not a browser page)', `?token=${token}`, {}, 403],
      ['no token', '', { origin: app.origin }, 401],
      ['an empty token', '?token=', { origin: app.origin }, 401],
      ['a wrong token', `?token=${wrongToken}`, { origin: app.origin }, 401],
      [
        'a DNS-rebound host name',
        `?token=${token}`,
        { origin: `http://evil.example:${port}`, host: `evil.example:${port}` },
        403,
      ],
    ];
    for (const [what, query, headers, status] of attempts) {
      expect(await connect(query, headers), what).toEqual({ open: false, status });
    }
  });

  it('serves no page or file to a request for another host name', async () => {
    const port = new URL(app.origin).port;
    expect(await statusOf('/', `evil.example:${port}`)).toBe(403);
    expect((await fetch(app.origin)).status).toBe(200);
  });

  it('answers a path outside its build, malformed or of a kind it does not serve with 404, and goes on', async () => {
    for (const path of [
      '/..%2f..%2fpackage.json',
      '/assets/../../package.json',
      '/%E0%A4%A',
      '/index.html%00.js',
      '/files/unknown-token',
      'http://[',
    ]) {
      expect(await statusOf(path), path).toBe(404);
    }
    expect(await statusOf('/')).toBe(200);
  });
});

/** The status of a GET of `path` exactly as written (no normalising client in between). */
function statusOf(path: string, host = new URL(app.origin).host): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: Number(new URL(app.origin).port), path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

const missing = browserMissing();

describe.skipIf(missing)(`the harness in a real browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let browser: Browser;
  let foreign: Server;

  beforeAll(async () => {
    browser = await launchChromium();
    // Another site on this machine: a different origin, as any page on the web would be.
    foreign = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'),
    );
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => foreign?.close(resolve));
  });

  // Runs in the page: the browser's own WebSocket, which sends the page's origin.
  const tryOpen = (socketUrl: string) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(socketUrl);
      ws.onopen = () => {
        ws.close();
        resolve('open');
      };
      ws.onerror = () => resolve('refused');
    });

  it('refuses a socket from a foreign page even with the token, and from our page without it', async () => {
    const page = await browser.newPage();
    const socket = `${app.origin.replace('http:', 'ws:')}/ipc`;
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
    expect(await page.evaluate(tryOpen, `${socket}?token=${token}`)).toBe('refused');

    await page.goto(`${app.origin}/`);
    expect(await page.evaluate(tryOpen, socket)).toBe('refused');
    expect(await page.evaluate(tryOpen, `${socket}?token=${token}`)).toBe('open');
    await page.close();
  });

  it('tells a page opened without the token or with a wrong one what to open, instead of staying blank', async () => {
    // A page each: a second address differing only in its fragment would not load the page again.
    const open = async (url: string) => {
      const page = await browser.newPage();
      await page.goto(url);
      return page;
    };
    for (const url of [`${app.origin}/`, `${app.origin}/#token=${'A'.repeat(43)}`]) {
      const page = await open(url);
      await expect
        .poll(() => page.getByRole('alert').allInnerTexts())
        .toEqual([expect.stringContaining('open the exact address it prints')]);
      await page.close();
    }
    const page = await open(app.url);
    await expect.poll(() => page.getByText('No batches yet').count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.close();
  });
});
