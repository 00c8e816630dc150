import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// A tiny static file server on 127.0.0.1 for integration tests: it plays the "public URL" a product photo
// lives at, so the sandbox fetches real bytes over real HTTP. It serves the shared product photos
// (../shared/fixtures/products from the repo root) plus any extra in-memory files a test registers.

const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The shared sample product photos: one folder per product, 1 to 3 PNGs each. */
export const PRODUCT_FIXTURES_DIR = resolve(REPO_ROOT, '../shared/fixtures/products');

/** A few product photos known to exist in the fixtures, relative to PRODUCT_FIXTURES_DIR. */
export const PRODUCT_PHOTOS = {
  hat: 'hat/solidus_hat.png',
  capRed: 'cap-red/solidus_cap_red_1.png',
  capGray: 'cap-gray/solidus_cap_gray_1.png',
  hoodie: 'hoodie-red/solidus_hoodie_red_1.png',
  /** 1440x794: the one landscape photo. */
  hoodieWide: 'hoodie-red/solidus_hoodie_red_2.png',
  tote: 'tote/solidus_canvas_tote.png',
  mug: 'mug-set/solidus_mug_set.png',
} as const;

/**
 * A catalog CSV at `path` with a row for each of these photos, the product named after its key (hat: Hat),
 * its URL on `photos`: what a shop's export names a product by. Returns `path`.
 */
export async function writeCatalog(
  path: string,
  photos: StaticServer,
  products: Array<keyof typeof PRODUCT_PHOTOS>,
): Promise<string> {
  const rows = products.map(
    (key) => `${key[0]!.toUpperCase()}${key.slice(1)},${photos.urlOf(PRODUCT_PHOTOS[key])}`,
  );
  await writeFile(path, `product,url\n${rows.join('\n')}\n`);
  return path;
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export interface ExtraFile {
  body: string | Buffer;
  contentType: string;
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The public URL of a file under the fixtures root (or of a registered extra file). */
  urlOf(relativePath: string): string;
  /** Serves `body` at `/<path>` from now on. */
  addFile(path: string, file: ExtraFile): string;
  /**
   * Holds every request for `path` (served or 404) until the returned function is called: a slow
   * photo host, so a test controls when the sandbox's fetch of it ends.
   */
  hold(path: string): () => void;
  /** Paths requested so far, in order. */
  hits(): string[];
  close(): Promise<void>;
}

export async function startStaticServer(root = PRODUCT_FIXTURES_DIR): Promise<StaticServer> {
  const extras = new Map<string, ExtraFile>();
  const hits: string[] = [];
  const held = new Map<string, Promise<void>>();

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: string | Buffer, contentType: string) => {
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://static.invalid').pathname);
    } catch {
      send(400, 'bad path', 'text/plain');
      return;
    }
    hits.push(path);
    await held.get(path);
    const extra = extras.get(path);
    if (extra) {
      send(200, extra.body, extra.contentType);
      return;
    }
    const file = resolve(root, `.${path}`);
    if (!file.startsWith(`${root}${sep}`)) {
      send(404, 'not found', 'text/plain');
      return;
    }
    readFile(file).then(
      (bytes) => send(200, bytes, CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'),
      () => send(404, 'not found', 'text/plain'),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urlOf = (relativePath: string) => `${url}/${relativePath.replace(/^\/+/, '')}`;

  return {
    url,
    urlOf,
    addFile(path, file) {
      const normalised = `/${path.replace(/^\/+/, '')}`;
      extras.set(normalised, file);
      return urlOf(normalised);
    },
    hold(path) {
      let release = () => {};
      held.set(
        `/${path.replace(/^\/+/, '')}`,
        new Promise<void>((done) => {
          release = done;
        }),
      );
      return release;
    },
    hits: () => [...hits],
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
