import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRemotePhoto } from '../../../src-main/core/ingest/remote-photo.ts';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import type { IngestPlan, Problem } from '../../../src-main/core/ingest/types.ts';
import type { OutboundPolicy } from '../../../src-main/core/net/outbound-policy.ts';
import {
  PRODUCT_FIXTURES_DIR,
  PRODUCT_PHOTOS,
  type StaticServer,
  startStaticServer,
} from '../../support/static-server.ts';

// Catalog photos are used by their public URLs: the check is a small ranged GET against a real HTTP server
// on 127.0.0.1 (the shared static server with the real product photos, or a tiny one here for what it does
// not do: honour Range, dribble a huge body, hang up midway).

const PROBE_BYTES = 64 * 1024;
/**
 * Every photo host here runs on this computer, which the outbound policy refuses unless allowed by name: they
 * are allowed as a designer serving a catalog from their own machine would allow theirs (`--allow-host`).
 */
const allowTestHosts: OutboundPolicy = { allowedHosts: ['127.0.0.1'] };

let dir: string;
let statics: StaticServer;
let odd: { url: string; server: Server; log: Array<{ path: string; range: string | undefined }> };
/** Bytes the slow host had written when the client hung up, and when. */
let dribble: { written: number; closedAt: number | null };

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise(server));
  });
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

const square = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#c08040' } })
    .png()
    .toBuffer();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-catalogs-'));
  statics = await startStaticServer();
  statics.addFile('/tiny.png', { body: await square(100), contentType: 'image/png' });
  statics.addFile('/page.html', {
    body: '<!doctype html><title>Product</title><img src="/hat.png">',
    contentType: 'text/html; charset=utf-8',
  });
  statics.addFile('/logo.svg', {
    body: '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"/>',
    contentType: 'image/svg+xml',
  });
  statics.addFile('/empty.png', { body: Buffer.alloc(0), contentType: 'image/png' });
  statics.addFile('/error-page.jpg', {
    body: '<html><body>Service unavailable</body></html>',
    contentType: 'image/jpeg',
  });

  const big = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.tote));
  expect(big.length).toBeGreaterThan(PROBE_BYTES);
  dribble = { written: 0, closedAt: null };
  const log: Array<{ path: string; range: string | undefined }> = [];
  const server = await listen((req, res) => {
    log.push({ path: req.url ?? '', range: req.headers.range });
    if (req.url === '/honours-range.png') {
      // A CDN: 206 with just the bytes asked for.
      const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '') ?? [];
      if (from === undefined || to === undefined) {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big);
        return;
      }
      const part = big.subarray(Number(from), Number(to) + 1);
      res
        .writeHead(206, {
          'content-type': 'image/png',
          'content-length': part.length,
          'content-range': `bytes ${from}-${Number(from) + part.length - 1}/${big.length}`,
        })
        .end(part);
      return;
    }
    if (req.url === '/ignores-range.png') {
      // A host that ignores Range: 200 and a 20 MB body (a real PNG, then padding), 16 KB every 5 ms.
      const total = 20 * 1024 * 1024;
      const size = 16 * 1024;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': total });
      dribble.written = 0;
      const timer = setInterval(() => {
        if (dribble.written >= total) {
          clearInterval(timer);
          res.end();
          return;
        }
        const real = big.subarray(dribble.written, dribble.written + size);
        res.write(real.length === size ? real : Buffer.alloc(size));
        dribble.written += size;
      }, 5);
      res.on('close', () => {
        clearInterval(timer);
        dribble.closedAt = Date.now();
      });
      return;
    }
    if (req.url === '/hangs-up.png') {
      // Headers and the start of the image, then the connection drops.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length });
      res.write(big.subarray(0, 1000));
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  odd = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, log };
});

afterAll(async () => {
  await statics?.close();
  if (odd) await closeServer(odd.server);
  await rm(dir, { recursive: true, force: true });
});

describe('checkRemotePhoto', () => {
  it('accepts a real product photo, with its real size', async () => {
    expect(await checkRemotePhoto(statics.urlOf(PRODUCT_PHOTOS.hat), allowTestHosts)).toEqual({
      ok: true,
      width: 1360,
      height: 1190,
    });
    expect(await checkRemotePhoto(statics.urlOf(PRODUCT_PHOTOS.hoodieWide), allowTestHosts)).toEqual({
      ok: true,
      width: 1440,
      height: 794,
    });
  });

  it('asks for the first 64 KB only, and reads the size from a 206 answer', async () => {
    const before = odd.log.length;
    expect(await checkRemotePhoto(`${odd.url}/honours-range.png`, allowTestHosts)).toEqual({
      ok: true,
      width: 1360,
      height: 1190,
    });
    expect(odd.log.slice(before)).toEqual([
      { path: '/honours-range.png', range: `bytes=0-${PROBE_BYTES - 1}` },
    ]);
  });

  it('says HTTP 404 for a missing photo', async () => {
    expect(await checkRemotePhoto(statics.urlOf('hat/no-such-photo.png'), allowTestHosts)).toEqual({
      ok: false,
      code: 'unreachable',
      reason: 'unreachable: HTTP 404',
    });
  });

  it('turns away a web page, naming its content type', async () => {
    const check = await checkRemotePhoto(statics.urlOf('page.html'), allowTestHosts);
    expect(check).toMatchObject({ ok: false, code: 'not_an_image' });
    expect(check.ok ? '' : check.reason).toMatch(/not an image: the server says text\/html/);
  });

  it('turns away an error page labelled as an image, by its bytes', async () => {
    const check = await checkRemotePhoto(statics.urlOf('error-page.jpg'), allowTestHosts);
    expect(check).toEqual({
      ok: false,
      code: 'not_an_image',
      reason: 'not an image: the server says image/jpeg but sends text content',
    });
  });

  it('turns away an SVG drawing', async () => {
    expect(await checkRemotePhoto(statics.urlOf('logo.svg'), allowTestHosts)).toMatchObject({
      ok: false,
      code: 'svg',
    });
  });

  it('turns away a photo too small to shoot, with its size', async () => {
    const check = await checkRemotePhoto(statics.urlOf('tiny.png'), allowTestHosts);
    expect(check).toMatchObject({ ok: false, code: 'too_small' });
    expect(check.ok ? '' : check.reason).toMatch(/too small: 100 x 100/);
  });

  it('turns away an image answer with no bytes', async () => {
    expect(await checkRemotePhoto(statics.urlOf('empty.png'), allowTestHosts)).toMatchObject({
      ok: false,
      code: 'empty',
    });
  });

  it('refuses what is not an http(s) URL, without asking anyone', async () => {
    const before = statics.hits().length;
    for (const url of ['ftp://127.0.0.1/hat.png', 'file:///etc/passwd', 'data:image/png;base64,iVBORw0K']) {
      const check = await checkRemotePhoto(url, allowTestHosts);
      expect(check).toMatchObject({ ok: false, code: 'unreachable' });
      expect(check.ok ? '' : check.reason).toMatch(/^not a public http\(s\) URL \((ftp|file|data):\)$/);
    }
    expect(await checkRemotePhoto('hat.png', allowTestHosts)).toEqual({
      ok: false,
      code: 'unreachable',
      reason: 'not a URL',
    });
    expect(statics.hits().length).toBe(before);
  });

  it('says unreachable when nothing listens on the port', async () => {
    const server = await listen(() => {});
    const { port } = server.address() as AddressInfo;
    await closeServer(server);
    const check = await checkRemotePhoto(`http://127.0.0.1:${port}/hat.png`, allowTestHosts);
    expect(check).toEqual({ ok: false, code: 'unreachable', reason: 'unreachable: ECONNREFUSED' });
  });

  it('says unreachable, without throwing, when the host hangs up in the middle', async () => {
    const check = await checkRemotePhoto(`${odd.url}/hangs-up.png`, allowTestHosts);
    expect(check).toMatchObject({ ok: false, code: 'unreachable' });
    expect(check.ok ? '' : check.reason).toMatch(/^unreachable: the answer broke off: /);
  });

  it('reads about 64 KB of a host that ignores Range and sends 20 MB, then hangs up', async () => {
    const started = Date.now();
    const check = await checkRemotePhoto(`${odd.url}/ignores-range.png`, allowTestHosts);
    const took = Date.now() - started;
    expect(check).toEqual({ ok: true, width: 1360, height: 1190 });
    // The slow host has had its connection closed: it stopped writing far short of the 20 MB.
    await expect.poll(() => dribble.closedAt, { timeout: 2000 }).not.toBeNull();
    expect(dribble.written).toBeGreaterThanOrEqual(PROBE_BYTES);
    expect(dribble.written).toBeLessThanOrEqual(PROBE_BYTES + 4 * 16 * 1024);
    // 20 MB at this pace would take over 6 s.
    expect(took).toBeLessThan(3000);
  });
});

describe('scanInputs on catalogs', () => {
  let plan: IngestPlan;
  let shopify: string;
  let list: string;
  let broken: string;
  let missing: string;
  const photo = (path: string) => statics.urlOf(path);

  beforeAll(async () => {
    shopify = join(dir, 'products_export_1.csv');
    list = join(dir, 'more.csv');
    broken = join(dir, 'broken.json');
    missing = join(dir, 'missing.csv');
    const many = Array.from({ length: 10 }, (_, i) => photo(`bottles/solidus_bottles_1.png?v=${i + 1}`));
    const rows = [
      'Handle,Title,Body (HTML),Vendor,Option1 Name,Option1 Value,Variant SKU,Variant Price,Image Src,Image Position,Image Alt Text,Status',
      // Out of order, with a variant row that has no image.
      `cap-red,Red Cap,"<p>Cotton, six panels.</p>\n<p>One size, ""adjustable"".</p>",Solidus,Size,One,CAP-R,19.00,${photo('cap-red/solidus_cap_red_3.png')},3,,active`,
      `cap-red,,,,,,CAP-R2,19.00,${photo('cap-red/solidus_cap_red_1.png')},1,Front,`,
      'cap-red,,,,Size,Two,CAP-R3,21.00,,,,',
      `cap-red,,,,,,,,${photo('cap-red/solidus_cap_red_2.png')},2,,`,
      // One good photo among a missing one, a web page and a repeated row.
      `canvas-tote,Canvas Tote,<p>Holds a lot.</p>,Solidus,,,TOTE,24.00,${photo('tote/no-such.png')},1,,active`,
      `canvas-tote,,,,,,,,${photo('page.html')},2,,`,
      `canvas-tote,,,,,,,,${photo(PRODUCT_PHOTOS.tote)},3,,`,
      `canvas-tote,,,,,,,,${photo(PRODUCT_PHOTOS.tote)},4,,`,
      // Nothing usable: an SVG, a tiny image, an ftp URL.
      `logo-sticker,Logo Sticker,,Solidus,,,STK,3.00,${photo('logo.svg')},1,,active`,
      `logo-sticker,,,,,,,,${photo('tiny.png')},2,,`,
      'logo-sticker,,,,,,,,ftp://127.0.0.1/sticker.png,3,,',
      // No image rows at all.
      'gift-card,Gift Card,,Solidus,Amount,25,GIFT-25,25.00,,,,active',
      // Ten photos: the first eight are used.
      ...many.map((url, i) => `bottles,${i === 0 ? 'Bottles' : ''},,,,,,,${url},${i + 1},,`),
      // No Title: named after its handle.
      `bucket-hat,,,,,,HAT,15.00,${photo(PRODUCT_PHOTOS.hat)},1,,draft`,
    ];
    await writeFile(shopify, `\uFEFF${rows.join('\r\n')}\r\n`);
    // A second catalog with a product of the same name: told apart.
    await writeFile(list, `product,url\nRed Cap,${photo(PRODUCT_PHOTOS.capGray)}\n`);
    await writeFile(broken, '{"product": "mug", "url": ');
    plan = await scanInputs([shopify, list, broken, missing], {
      cacheDir: join(dir, 'cache'),
      outbound: allowTestHosts,
    });
  });

  const problemsAbout = (file: string) => plan.problems.filter((problem) => problem.file === file);
  const codes = (problems: Problem[]) => problems.map((problem) => problem.code);

  it('makes a product of each catalog entry with photos, hero first, in position order', () => {
    expect(plan.products.map((product) => [product.name, product.path, product.photos.length])).toEqual([
      ['Red Cap', 'cap-red', 3],
      ['Canvas Tote', 'canvas-tote', 1],
      ['Bottles', 'bottles', 8],
      ['bucket-hat', 'bucket-hat', 1],
      ['Red Cap (2)', 'Red Cap', 1],
    ]);
    expect(plan.products[0]!.photos.map((p) => p.url)).toEqual([
      photo('cap-red/solidus_cap_red_1.png'),
      photo('cap-red/solidus_cap_red_2.png'),
      photo('cap-red/solidus_cap_red_3.png'),
    ]);
    expect(plan.products[2]!.photos.map((p) => p.url)).toEqual(
      Array.from({ length: 8 }, (_, i) => photo(`bottles/solidus_bottles_1.png?v=${i + 1}`)),
    );
    expect(plan.products.map((product) => product.sourceDir)).toEqual([
      shopify,
      shopify,
      shopify,
      shopify,
      list,
    ]);
  });

  it('keeps URL photos as URLs: no local path, hash, thumbnail or conversion', () => {
    for (const product of plan.products) {
      for (const p of product.photos) {
        expect(p).toEqual({
          file: p.url,
          path: null,
          url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
          width: expect.any(Number),
          height: expect.any(Number),
          hash: null,
          format: null,
          thumbnail: null,
          converted: null,
          realPath: null,
        });
      }
    }
    expect(plan.products[1]!.photos[0]).toMatchObject({
      url: photo(PRODUCT_PHOTOS.tote),
      width: 1360,
      height: 1190,
    });
  });

  it('reports each bad URL with its reason', () => {
    expect(problemsAbout(photo('tote/no-such.png'))).toEqual([
      {
        file: photo('tote/no-such.png'),
        // Where the catalog names it, as a spreadsheet numbers its rows (the multi-line HTML cell is one row).
        place: 'products_export_1.csv, row 6',
        reason: 'unreachable: HTTP 404',
        severity: 'error',
        code: 'unreachable',
      },
    ]);
    expect(codes(problemsAbout(photo('page.html')))).toEqual(['not_an_image']);
    expect(codes(problemsAbout(photo('logo.svg')))).toEqual(['svg']);
    expect(codes(problemsAbout(photo('tiny.png')))).toEqual(['too_small']);
    expect(codes(problemsAbout('ftp://127.0.0.1/sticker.png'))).toEqual(['unreachable']);
    expect(problemsAbout('ftp://127.0.0.1/sticker.png')[0]!.place).toBe('products_export_1.csv, row 12');
  });

  it('reports products left with no photos, and a product with more than eight', () => {
    expect(problemsAbout('Logo Sticker')).toEqual([
      { file: 'Logo Sticker', reason: 'no usable photos', severity: 'error', code: 'no_photos' },
    ]);
    expect(codes(problemsAbout('Gift Card'))).toEqual(['no_photos']);
    const tooMany = problemsAbout('Bottles');
    expect(codes(tooMany)).toEqual(['too_many_photos']);
    expect(tooMany[0]!.severity).toBe('warning');
    expect(tooMany[0]!.reason).toMatch(/^10 photos: only the first 8 are used/);
  });

  it('reports an unreadable catalog and a missing one, and goes on with the rest', () => {
    expect(problemsAbout(broken)).toEqual([
      {
        file: broken,
        reason: expect.stringMatching(/^not valid JSON \(/),
        severity: 'error',
        code: 'bad_catalog',
      },
    ]);
    expect(problemsAbout(missing)).toEqual([
      { file: missing, reason: 'no such file or folder', severity: 'error', code: 'missing_input' },
    ]);
  });

  it('has no problems beyond those', () => {
    expect(plan.problems).toHaveLength(10);
    expect(plan.skipped).toEqual([]);
  });

  it('asked the photo host for each distinct URL once, and nothing else', () => {
    const hits = statics.hits();
    const asked = (path: string) => hits.filter((hit) => hit === path).length;
    expect(asked('/cap-red/solidus_cap_red_1.png')).toBe(1);
    expect(asked(`/${PRODUCT_PHOTOS.tote}`)).toBe(1);
    // The ten bottles URLs differ only in their query: ten requests for the one file.
    expect(asked('/bottles/solidus_bottles_1.png')).toBe(10);
  });
});

describe('scanInputs on a catalog: progress and cancelling', () => {
  /** A plain catalog of `rows` products, each its own URL of the one real photo. */
  async function catalogOf(name: string, rows: number): Promise<string> {
    const file = join(dir, name);
    const lines = Array.from(
      { length: rows },
      (_, i) => `Hat ${i},${statics.urlOf(`${PRODUCT_PHOTOS.hat}?row=${i}`)}`,
    );
    await writeFile(file, `product,url\n${lines.join('\n')}\n`);
    return file;
  }
  const hatHits = () => statics.hits().filter((hit) => hit === `/${PRODUCT_PHOTOS.hat}`).length;

  it('counts each catalog URL it checks in its progress', async () => {
    const seen: Array<{ checked: number; total: number }> = [];
    const plan = await scanInputs([await catalogOf('progress.csv', 5)], {
      cacheDir: join(dir, 'cache'),
      outbound: allowTestHosts,
      onProgress: (progress) => seen.push(progress),
    });
    expect(plan.products).toHaveLength(5);
    expect(seen[0]).toEqual({ checked: 0, total: 5 });
    expect(seen.at(-1)).toEqual({ checked: 5, total: 5 });
    expect(seen.map((progress) => progress.checked)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('stops checking when its signal is aborted, and rejects with the reason', async () => {
    const file = await catalogOf('cancelled.csv', 40);
    const before = hatHits();
    const controller = new AbortController();
    const reason = new Error('cancelled by the designer');
    const scan = scanInputs([file], {
      cacheDir: join(dir, 'cache'),
      outbound: allowTestHosts,
      concurrency: 2,
      signal: controller.signal,
      onProgress: ({ checked }) => {
        if (checked === 2) controller.abort(reason);
      },
    });
    await expect(scan).rejects.toBe(reason);
    // The two checks under way when it was cancelled may finish; no new one starts.
    expect(hatHits() - before).toBeLessThanOrEqual(4);
  });
});
