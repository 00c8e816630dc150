import { createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve } from 'node:path';
import {
  FOREIGN_HOST_REFUSAL,
  FOREIGN_HOST_STATUS,
  isLoopbackHostname,
  isOwnHost,
  ownHosts,
} from '../../shared/loopback.ts';
import { photoContentType } from './content-types.ts';
import type { PhotoHost } from './photo-host.ts';

// Makes local photos reachable by a service on the same machine (the sandbox): an HTTP server bound to
// 127.0.0.1 that serves only the files registered with it, each under an unguessable token. Nothing else is
// listed or served. Tokens derive from a secret and the file's path, so a restart with the same secret
// (and port, when free) hands out the same URLs. A request naming another Host is refused before anything
// else (a page elsewhere could reach the port by DNS rebinding).

/** A service at this address runs on this machine, so it can fetch photos from a loopback host. */
export function isLoopbackUrl(url: string): boolean {
  return isLoopbackHostname(new URL(url).hostname);
}

export interface LoopbackHost extends PhotoHost {
  readonly origin: string;
}

/** How long a request for a file not registered yet waits for the host's first registration. */
const DEFAULT_UNTOLD_WAIT_MS = 5000;

export async function startLoopbackHost(
  options: { secret?: Buffer; port?: number; untoldWaitMs?: number } = {},
): Promise<LoopbackHost> {
  const secret = options.secret ?? randomBytes(32);
  const files = new Map<string, string>();
  // Restarted on the same address, the host may be asked for a photo by a job created before the restart
  // before the engine has told it about its files again. Until the first registration such a request waits
  // (briefly) instead of getting a 404, which a service takes as final.
  let told = false;
  let onTold = () => {};
  const firstTold = new Promise<void>((resolvePromise) => {
    onTold = resolvePromise;
  });
  const untoldWaitMs = options.untoldWaitMs ?? DEFAULT_UNTOLD_WAIT_MS;

  // Imported when a host starts: an ESM import of node:http loads Node's bundled undici (its WebSocket
  // getters), about 25 ms that a command which hosts no photo (`adbatch status`) should not pay.
  const { createServer } = await import('node:http');
  let hosts = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    if (!isOwnHost(req.headers.host, hosts)) {
      res.writeHead(FOREIGN_HOST_STATUS, { 'content-type': 'text/plain' }).end(FOREIGN_HOST_REFUSAL);
      return;
    }
    const token = /^\/p\/([0-9a-f]{48})(?:\.[a-z0-9]+)?$/.exec(req.url ?? '')?.[1];
    if (token && !told) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        firstTold,
        new Promise<void>((resolvePromise) => {
          timer = setTimeout(resolvePromise, untoldWaitMs).unref();
        }),
      ]);
      clearTimeout(timer);
    }
    const path = token ? files.get(token) : undefined;
    if (!path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    stat(path).then(
      (info) => {
        if (!info.isFile()) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        res.writeHead(200, {
          'content-type': photoContentType(path),
          'content-length': info.size,
          'cache-control': 'no-store',
        });
        if (req.method === 'HEAD') res.end();
        else
          createReadStream(path)
            .on('error', () => res.destroy())
            .pipe(res);
      },
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found'),
    );
  });

  const listen = (port: number) =>
    new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolvePromise();
      });
    });
  try {
    await listen(options.port ?? 0);
  } catch (error) {
    if (!options.port) throw error;
    await listen(0);
  }
  const { port } = server.address() as AddressInfo;
  hosts = ownHosts(port);
  const origin = `http://127.0.0.1:${port}`;

  const register = (path: string) => {
    told = true;
    onTold();
    const absolute = resolve(path);
    const token = createHmac('sha256', secret).update(absolute).digest('hex').slice(0, 48);
    files.set(token, absolute);
    return `${origin}/p/${token}${extname(absolute).toLowerCase()}`;
  };

  return {
    origin,
    persistent: false,
    async prepare(paths, onProgress) {
      told = true;
      onTold();
      for (const path of paths) register(path);
      onProgress?.({ done: paths.length, total: paths.length, bytesSent: 0 });
    },
    urlFor: async (path: string) => register(path),
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}
