import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, downloadVerified } from '../../../../src-main/core/downloads/download.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

const MP4_FILE = resolve(__dirname, '../../../../resources/sandbox/fallback.mp4');

let png: Buffer;
let jpeg: Buffer;
let mp4: Buffer;

beforeAll(async () => {
  png = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.hat));
  jpeg = await sharp(png).resize(64).jpeg({ quality: 80 }).toBuffer();
  mp4 = await readFile(MP4_FILE);
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

interface TestServer {
  url: string;
  /** The Range header of every request, in order (null when none was sent). */
  ranges: Array<string | null>;
  close(): Promise<void>;
}

const servers: TestServer[] = [];

async function serve(handler: Handler): Promise<TestServer> {
  const ranges: Array<string | null> = [];
  const server: Server = createServer((req, res) => {
    ranges.push(req.headers.range ?? null);
    handler(req, res, ranges.length);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const test: TestServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/result`,
    ranges,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  servers.push(test);
  return test;
}

/** Answers the whole body, or honours `Range: bytes=N-` with a 206. */
function sendBytes(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  contentType: string,
  honourRange = true,
) {
  const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (match && honourRange) {
    const start = Number(match[1]);
    if (start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(206, {
      'content-type': contentType,
      'content-length': body.length - start,
      'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
    });
    res.end(body.subarray(start));
    return;
  }
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
}

/** Declares the whole length, sends `cutAt` bytes, then drops the connection. */
function sendCut(res: ServerResponse, body: Buffer, cutAt: number) {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
  res.write(body.subarray(0, cutAt), () => {
    setTimeout(() => res.socket?.destroy(), 20);
  });
}

async function failure(promise: Promise<unknown>): Promise<DownloadError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DownloadError);
    return error as DownloadError;
  }
  throw new Error('the download did not fail');
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-download-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('downloadVerified', () => {
  it('lands a PNG verified, hashed and renamed into place, creating its folder', async () => {
    const server = await serve((req, res) => sendBytes(req, res, png, 'image/png'));
    const file = join(dir, 'Batch (abc123)', '001 Hat', 'shot-1.png');
    const result = await downloadVerified(server.url, file, 'image');
    expect(result).toEqual({ bytes: png.length, sha256: sha256(png) });
    expect(sha256(await readFile(file))).toBe(sha256(png));
    expect(existsSync(`${file}.part`)).toBe(false);
    expect(server.ranges).toEqual([null]);
  });

  it('lands a JPEG and an MP4', async () => {
    const images = await serve((req, res) => sendBytes(req, res, jpeg, 'image/jpeg'));
    const videos = await serve((req, res) => sendBytes(req, res, mp4, 'video/mp4'));
    expect(await downloadVerified(images.url, join(dir, 'shot.jpg'), 'image')).toEqual({
      bytes: jpeg.length,
      sha256: sha256(jpeg),
    });
    expect(await downloadVerified(videos.url, join(dir, 'video.mp4'), 'video')).toEqual({
      bytes: mp4.length,
      sha256: sha256(mp4),
    });
    expect(existsSync(join(dir, 'video.mp4.part'))).toBe(false);
  });

  it('keeps the .part of a body cut half way, then resumes it with a Range request', async () => {
    const half = Math.floor(png.length / 2);
    const server = await serve((req, res, attempt) =>
      attempt === 1 ? sendCut(res, png, half) : sendBytes(req, res, png, 'image/png'),
    );
    const file = join(dir, 'shot-1.png');

    const cut = await failure(downloadVerified(server.url, file, 'image'));
    expect(cut.transient).toBe(true);
    expect(existsSync(file)).toBe(false);
    const kept = (await stat(`${file}.part`)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(half);

    const result = await downloadVerified(server.url, file, 'image');
    expect(server.ranges).toEqual([null, `bytes=${kept}-`]);
    expect(result).toEqual({ bytes: png.length, sha256: sha256(png) });
    expect(sha256(await readFile(file))).toBe(sha256(png));
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('starts over cleanly when the server ignores Range and answers 200', async () => {
    const server = await serve((req, res) => sendBytes(req, res, mp4, 'video/mp4', false));
    const file = join(dir, 'video.mp4');
    // Bytes left behind by an earlier attempt, which are not even the right ones.
    await writeFile(`${file}.part`, Buffer.alloc(3000, 0xab));
    const result = await downloadVerified(server.url, file, 'video');
    expect(server.ranges).toEqual(['bytes=3000-']);
    expect(result).toEqual({ bytes: mp4.length, sha256: sha256(mp4) });
    expect(sha256(await readFile(file))).toBe(sha256(mp4));
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('rejects a corrupted image of the right length and drops its .part', async () => {
    const corrupted = Buffer.from(png);
    const middle = Math.floor(corrupted.length / 2);
    for (let index = middle; index < middle + 64; index++) corrupted[index] = corrupted[index]! ^ 0xff;
    const server = await serve((req, res) => sendBytes(req, res, corrupted, 'image/png'));
    const file = join(dir, 'shot-1.png');
    const error = await failure(downloadVerified(server.url, file, 'image'));
    expect(error.message).toBe('the image does not decode: its data is damaged or cut short');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('rejects an HTML page served as the video (no ftyp) and drops its .part', async () => {
    const html = Buffer.from('<!doctype html><html><body><h1>Bad gateway</h1></body></html>'.repeat(4));
    const server = await serve((req, res) => sendBytes(req, res, html, 'text/html'));
    const file = join(dir, 'video.mp4');
    const error = await failure(downloadVerified(server.url, file, 'video'));
    expect(error.message).toMatch(/ftyp/);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('treats 404 as final, 503 and 429 as worth another try', async () => {
    const statuses: Record<string, number> = { '/gone': 404, '/busy': 503, '/slow': 429 };
    const server = await serve((req, res) => res.writeHead(statuses[req.url ?? ''] ?? 500).end('no'));
    const base = server.url.replace(/\/result$/, '');
    const gone = await failure(downloadVerified(`${base}/gone`, join(dir, 'a.png'), 'image'));
    expect(gone.transient).toBe(false);
    expect(gone.message).toMatch(/404/);
    const busy = await failure(downloadVerified(`${base}/busy`, join(dir, 'b.png'), 'image'));
    expect(busy.transient).toBe(true);
    expect(busy.message).toMatch(/503/);
    expect((await failure(downloadVerified(`${base}/slow`, join(dir, 'c.png'), 'image'))).transient).toBe(
      true,
    );
    for (const name of ['a.png', 'b.png', 'c.png']) expect(existsSync(join(dir, name))).toBe(false);
  });

  it('drops a .part the server cannot resume (416) so the next attempt starts over', async () => {
    const server = await serve((req, res) => sendBytes(req, res, png, 'image/png'));
    const file = join(dir, 'shot-1.png');
    await writeFile(`${file}.part`, Buffer.alloc(png.length + 10, 1));
    const error = await failure(downloadVerified(server.url, file, 'image'));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/416/);
    expect(existsSync(`${file}.part`)).toBe(false);
    expect(await downloadVerified(server.url, file, 'image')).toEqual({
      bytes: png.length,
      sha256: sha256(png),
    });
    expect(server.ranges).toEqual([`bytes=${png.length + 10}-`, null]);
  });

  it('reports a server it cannot reach as transient', async () => {
    const server = await serve((_req, res) => res.end());
    const url = server.url;
    await server.close();
    servers.length = 0;
    const error = await failure(downloadVerified(url, join(dir, 'a.png'), 'image'));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/could not reach 127\.0\.0\.1/);
  });

  it('refuses a result larger than any of its kind, said or streamed without end, keeping nothing of it', async () => {
    const maxBytes = 1024 * 1024;
    const big = Buffer.alloc(1.5 * maxBytes, 7);
    const said = await serve((req, res) => sendBytes(req, res, big, 'image/png'));
    const file = join(dir, 'shot.png');
    const declared = await failure(downloadVerified(said.url, file, 'image', { maxBytes }));
    expect(declared.transient).toBe(false);
    expect(declared.message).toBe(
      'the image is 1.5 MB, more than any image result (the limit is 1 MB): not kept',
    );
    // No length said, and a body that never ends: cut off once past the limit.
    let sent = 0;
    const endless = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const more = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) break;
        }
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const streamed = await failure(
      downloadVerified(endless.url, join(dir, 'video.mp4'), 'video', { maxBytes }),
    );
    expect(streamed.transient).toBe(false);
    expect(streamed.message).toBe(
      'the video went on past 1 MB, more than any video result (the limit is 1 MB): not kept',
    );
    expect(sent).toBeGreaterThan(maxBytes);
    for (const left of [file, `${file}.part`, join(dir, 'video.mp4'), join(dir, 'video.mp4.part')]) {
      expect(existsSync(left), left).toBe(false);
    }
  });
});
