import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';
import { contentTypeOf, rendererFile } from './renderer-files.ts';

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

/** The file under `root` that an app:// URL names, or null for another host or anything outside `root`. */
function appFile(root: string, url: string): string | null {
  const parsed = new URL(url);
  return parsed.host === APP_HOST ? rendererFile(root, parsed.pathname) : null;
}

export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  root: string,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = request.method === 'GET' ? appFile(root, request.url) : null;
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const response = await net.fetch(pathToFileURL(file).toString());
      if (!response.ok) return new Response('Not found', { status: 404 });
      return new Response(response.body, {
        headers: {
          'content-type': contentTypeOf(file)!,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
