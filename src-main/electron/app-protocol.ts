import { extname, isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';

// The renderer is served from app://adbatch/, a privileged standard scheme, not file://: its origin is one
// host that nothing else shares (every file:// page is one origin), CSP's 'self' means exactly our bundle,
// and only files inside the built renderer folder are answered.

export const APP_SCHEME = 'app';
export const APP_HOST = 'adbatch';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

// The built renderer holds only these kinds of file; anything else is not ours to serve.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** The file under `root` that an app:// URL names, or null when it names anything outside it. */
export function rendererFile(root: string, url: string): string | null {
  const parsed = new URL(url);
  if (parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
  return extname(file).toLowerCase() in TYPES ? file : null;
}

export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  root: string,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = request.method === 'GET' ? rendererFile(root, request.url) : null;
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const response = await net.fetch(pathToFileURL(file).toString());
      if (!response.ok) return new Response('Not found', { status: 404 });
      return new Response(response.body, {
        headers: {
          'content-type': TYPES[extname(file).toLowerCase()]!,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
