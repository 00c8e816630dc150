import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import type { Core } from '../../src-main/core/create-core.ts';
import { type CoreHarness, startCoreHarness } from '../support/core-harness.ts';

// The browser harness: the real core (queue, ingest, engine, the embedded sandbox) with the renderer built by
// Vite, over HTTP on 127.0.0.1. The same handler map Electron registers on ipcMain is mounted on a WebSocket
// at /ipc; local images are served under /files/<token> from the core's file gateway, nothing else.

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const RENDERER_DIR = join(REPO, 'out', 'renderer');
export const EXAMPLES_DIR = join(REPO, 'resources', 'examples');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.json': 'application/json',
};

export interface AppServer {
  url: string;
  core: Core;
  harness: CoreHarness;
  close(): Promise<void>;
}

async function sendFile(res: ServerResponse, file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': 'no-store',
  });
  createReadStream(file).pipe(res);
}

export async function startAppServer(
  options: { port?: number; dir?: string; pick?: string[]; timeScale?: number } = {},
): Promise<AppServer> {
  const harness = await startCoreHarness({
    dir: options.dir,
    pick: options.pick ?? [EXAMPLES_DIR],
    timeScale: options.timeScale,
  });
  const { core } = harness;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname.startsWith('/files/')) {
      const path = core.files.resolve(url.pathname.slice('/files/'.length));
      if (!path) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      else void sendFile(res, path);
      return;
    }
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = normalize(join(RENDERER_DIR, relative));
    if (!file.startsWith(RENDERER_DIR + sep)) {
      res.writeHead(404).end();
      return;
    }
    void sendFile(res, file);
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/ipc') {
      socket.destroy();
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

  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    core,
    harness,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await harness.close();
    },
  };
}
