import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

// Electron's protocol.handle and net.fetch as our scheme handlers use them: the handler is kept for the test
// to call as Electron would, and net.fetch reads file:// URLs from disk for real.

/** Electron's net.fetch of a file:// URL: the file's bytes, every path read recorded; a missing file rejects. */
export function fileNet() {
  const fetched: string[] = [];
  return {
    fetched,
    fetch: async (url: string) => {
      const path = fileURLToPath(url);
      fetched.push(path);
      return new Response(await readFile(path));
    },
  };
}

/**
 * Registers a scheme's handler through `register` (given stand-ins for Electron's protocol and net, typed
 * `never` as electron's types stay out of test/support); `get` then asks it for a URL as the page would.
 */
export function servedScheme(scheme: string, register: (protocol: never, net: never) => void) {
  let handler: ((request: Request) => Promise<Response>) | null = null;
  const net = fileNet();
  register(
    {
      handle: (registered: string, h: typeof handler) => {
        expect(registered).toBe(scheme);
        handler = h;
      },
    } as never,
    net as never,
  );
  return {
    fetched: net.fetched,
    get: (url: string, method = 'GET') => handler!(new Request(url, { method })),
  };
}
