import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import type { Core } from '../core/create-core.ts';
import { contentTypeOf, rendererFile } from '../electron/renderer-files.ts';
import { FOREIGN_HOST_REFUSAL, FOREIGN_HOST_STATUS, isOwnHost, ownHosts } from '../shared/loopback.ts';

// The app in a browser (`npm run app:web`, and the browser harness the UI tests drive): a core, with the
// renderer's browser build, over HTTP on 127.0.0.1. The same handler map Electron registers on ipcMain is
// mounted on a WebSocket at /ipc; local images are served under /files/<token> from the core's file gateway,
// nothing else.
//
// It drives real accounts and spends real credits once given a key, and any web page the user visits can
// open a WebSocket to 127.0.0.1. So the socket is opened only for a page of our own origin that holds this
// run's random token, which only the URL the server prints carries (in its fragment); and every request
// must name our host, so a DNS-rebound foreign name reaches nothing.

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The browser build of the renderer (`npm run build:harness`): the app's own build has no WebSocket code. */
export const RENDERER_DIR = join(REPO, 'out', 'harness');

export interface WebServer {
  /** The page to open, with this run's token: the only way in. */
  url: string;
  /** http://127.0.0.1:<port>, the only origin whose pages may open the socket. */
  origin: string;
  /** Stops serving (the core is its owner's to stop). */
  close(): Promise<void>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A file, or the one byte range asked for, as the app's `adbatch-media:` protocol answers (Electron's `net`
 * answers ranges): without them Chromium cannot seek in a video, and the loupe's J and frame steps could not be
 * tested here.
 */
async function sendFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const headers = {
    'content-type': contentTypeOf(file) ?? 'application/octet-stream',
    'cache-control': 'no-store',
    'accept-ranges': 'bytes',
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && info.size > 0 && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, info.size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), info.size - 1) : info.size - 1;
    if (start > end || start >= info.size) {
      res.writeHead(416, { 'content-range': `bytes */${info.size}` }).end();
      return;
    }
    res.writeHead(206, {
      ...headers,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${info.size}`,
    });
    createReadStream(file, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': info.size });
  createReadStream(file).pipe(res);
}

/** Serves `core` to the browser on 127.0.0.1 (`port`, or any free one). */
export async function startWebServer(core: Core, options: { port?: number } = {}): Promise<WebServer> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`${RENDERER_DIR} is missing: run \`npm run build:harness\` first.`);
  }
  const token = randomBytes(32).toString('base64url');
  let origin = '';

  let hosts = new Set<string>();
  const ourHost = (req: IncomingMessage) => isOwnHost(req.headers.host, hosts);

  // A request target that is no URL (a client other than a browser can send one) is refused, not thrown.
  const urlOf = (req: IncomingMessage) => URL.parse(req.url ?? '/', origin);

  // The gateway's files by token; the renderer's found as the app:// protocol finds them, so the two refuse
  // the same paths.
  const fileOf = (url: URL | null): string | null => {
    if (!url) return null;
    if (url.pathname.startsWith('/files/')) return core.files.resolve(url.pathname.slice('/files/'.length));
    return rendererFile(RENDERER_DIR, url.pathname);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!ourHost(req)) {
      res.writeHead(FOREIGN_HOST_STATUS, { 'content-type': 'text/plain' }).end(FOREIGN_HOST_REFUSAL);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const file = fileOf(urlOf(req));
    if (!file) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    else void sendFile(req, res, file);
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = urlOf(req);
    if (url?.pathname !== '/ipc' || !ourHost(req) || req.headers.origin !== origin) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    if (!sameSecret(url.searchParams.get('token') ?? '', token)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      const off = core.events.onAny((event, payload) => ws.send(JSON.stringify({ event, payload })));
      ws.on('close', off);
      ws.on('message', async (data) => {
        let message: { id?: unknown; channel?: unknown; args?: unknown };
        try {
          message = JSON.parse(String(data));
        } catch {
          return;
        }
        if (typeof message.id !== 'number' || typeof message.channel !== 'string') return;
        const reply = await core.dispatch(message.channel, message.args);
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: message.id, reply }));
      });
    });
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  const { port } = server.address() as AddressInfo;
  hosts = ownHosts(port);
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
