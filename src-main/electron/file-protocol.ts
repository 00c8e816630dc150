import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';
import { contentTypeOf } from './renderer-files.ts';

// Both of our schemes (app: and adbatch-media:) answer with a local file, and differ only in which file a URL
// names. GET only; anything the scheme's own rule does not name, or that cannot be read, is a 404. The file is
// read through Electron's net (which streams it and answers a Range, as a video's seeking asks), typed by its
// extension and never sniffed.

export function serveFiles(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  scheme: string,
  fileOf: (url: URL) => string | null,
): void {
  const notFound = () => new Response('Not found', { status: 404 });
  protocol.handle(scheme, async (request) => {
    const file = request.method === 'GET' ? fileOf(new URL(request.url)) : null;
    if (!file) return notFound();
    try {
      const response = await net.fetch(pathToFileURL(file).toString(), { headers: request.headers });
      if (!response.ok) return notFound();
      const headers = new Headers(response.headers);
      const type = contentTypeOf(file);
      if (type) headers.set('content-type', type);
      headers.set('x-content-type-options', 'nosniff');
      return new Response(response.body, { status: response.status, headers });
    } catch {
      return notFound();
    }
  });
}
