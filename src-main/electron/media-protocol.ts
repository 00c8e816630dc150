import type { Net, Protocol } from 'electron';
import type { FileGateway } from '../core/app/files.ts';
import { serveFiles } from './file-protocol.ts';

// Local images (thumbnails, inputs, results) reach the renderer as adbatch-media://f/<token>: only files core
// registered in its gateway are served. No file://, no webSecurity: false.

export const MEDIA_SCHEME = 'adbatch-media';

export const MEDIA_SCHEME_PRIVILEGES = {
  scheme: MEDIA_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
};

export function mediaUrl(token: string): string {
  return `${MEDIA_SCHEME}://f/${token}`;
}

export function registerMediaProtocol(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  files: Pick<FileGateway, 'resolve'>,
): void {
  serveFiles(protocol, net, MEDIA_SCHEME, (url) =>
    url.host === 'f' ? files.resolve(url.pathname.slice(1)) : null,
  );
}
