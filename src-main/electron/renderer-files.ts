import { extname, isAbsolute, relative, resolve } from 'node:path';

// The files the page loads, found and typed one way for both of its servers: the app:// protocol in
// Electron and the app in a browser over HTTP (src-main/web/server.ts). Plain Node, no Electron.

// The bundle's own kinds of file, and the images and videos of the file gateway (which the harness types by
// extension too). Anything else is not ours to serve.
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
};

/** The content type a file is served with, or undefined for a kind of file the page never loads. */
export function contentTypeOf(file: string): string | undefined {
  return CONTENT_TYPES[extname(file).toLowerCase()];
}

/**
 * The file under `root` that a URL's path names (`/` is index.html), or null when it decodes to anything
 * outside `root`, is malformed, or is of a kind we do not serve.
 */
export function rendererFile(root: string, pathname: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
  return contentTypeOf(file) ? file : null;
}
