import type { Net, Protocol } from 'electron';
import { serveFiles } from './file-protocol.ts';
import { rendererFile } from './renderer-files.ts';

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

export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  root: string,
): void {
  serveFiles(protocol, net, APP_SCHEME, (url) =>
    url.host === APP_HOST ? rendererFile(root, url.pathname) : null,
  );
}
