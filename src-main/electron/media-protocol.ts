import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';
import type { FileGateway } from '../core/app/files.ts';

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
  protocol.handle(MEDIA_SCHEME, async (request) => {
    const url = new URL(request.url);
    const path = url.host === 'f' ? files.resolve(url.pathname.slice(1)) : null;
    if (!path || request.method !== 'GET') return new Response('Not found', { status: 404 });
    try {
      return await net.fetch(pathToFileURL(path).toString(), { headers: request.headers });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
