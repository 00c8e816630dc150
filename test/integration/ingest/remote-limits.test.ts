import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelLimitReason } from '../../../src-main/core/ingest/limits.ts';
import { checkRemotePhoto } from '../../../src-main/core/ingest/remote-photo.ts';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import type { OutboundPolicy } from '../../../src-main/core/net/outbound-policy.ts';

// Issue 28, point 2: a catalog photo is held to the limits of a local one, whatever its server declares: a
// declared 20 GB is refused at once, a PNG whose header says 60000 x 60000 from its header bytes, and a body
// with no size said is cut off after the few bytes the check needs. Point 1 through a scan: a catalog
// naming the metadata service or the office network gets its reason per row, and nothing is asked.
// The hosts are a real HTTP server on 127.0.0.1, allowed by name as a designer's own would be.

const allowTestHost: OutboundPolicy = { allowedHosts: ['127.0.0.1'] };
const TWENTY_GB = 20 * 1024 ** 3;

let server: Server;
let base: string;
let dir: string;
let photo: Buffer;
/** Bytes written by the endless host before it was hung up on, and whether it was. */
const endless = { written: 0, closed: false };
/** Whether the 20 GB hosts were hung up on. */
const hungUp = new Set<string>();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, crc]);
}

/** A PNG's signature and header chunk for this size: what a decompression bomb starts with. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', ihdr)]);
}

function route(request: IncomingMessage, response: ServerResponse): void {
  response.on('close', () => hungUp.add(request.url ?? ''));
  if (request.url === '/declares-20gb.png') {
    // Ignores Range: 200, the whole (claimed) file, its first bytes sent, the rest never coming.
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': TWENTY_GB });
    response.write(photo.subarray(0, 1024));
  } else if (request.url === '/ranged-20gb.png') {
    response.writeHead(206, {
      'content-type': 'image/png',
      'content-range': `bytes 0-65535/${TWENTY_GB}`,
      'content-length': 65_536,
    });
    response.write(photo.subarray(0, 1024));
  } else if (request.url === '/bomb.png') {
    // Its first row of zeros, compressed: a real start of image data, the rest never sent.
    response.writeHead(200, { 'content-type': 'image/png' });
    response.write(pngHeader(60_000, 60_000));
    response.write(pngChunk('IDAT', deflateSync(Buffer.alloc(60_000 * 3 + 1))));
  } else if (request.url === '/bomb-then-noise.png') {
    // The header, then bytes that are no PNG chunk: libvips will not read such a header, the check still does.
    response.writeHead(200, { 'content-type': 'image/png' });
    response.write(pngHeader(60_000, 60_000));
    response.write(Buffer.alloc(64 * 1024));
  } else if (request.url === '/endless.png') {
    // No size said at all, and a body that does not end: a real photo, then padding, forever.
    response.writeHead(200, { 'content-type': 'image/png' });
    const send = () => {
      while (!response.destroyed && response.write(endless.written === 0 ? photo : Buffer.alloc(16 * 1024))) {
        endless.written += endless.written === 0 ? photo.length : 16 * 1024;
      }
    };
    response.on('drain', send);
    response.on('close', () => {
      endless.closed = true;
    });
    send();
  } else response.writeHead(404).end();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-remote-limits-'));
  photo = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#a06040' } })
    .png()
    .toBuffer();
  server = createServer(route).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a catalog photo within the limits of a local one', () => {
  it('refuses a declared 20 GB at once, and hangs up', async () => {
    for (const path of ['/declares-20gb.png', '/ranged-20gb.png']) {
      expect(await checkRemotePhoto(`${base}${path}`, allowTestHost), path).toEqual({
        ok: false,
        code: 'too_large',
        reason: 'too large: 20,480 MB, the limit is 40 MB (as its server declares)',
      });
      await expect.poll(() => hungUp.has(path), { timeout: 5000 }).toBe(true);
    }
  });

  it('refuses a PNG whose header says 60000 x 60000, from its header, before decoding it', async () => {
    for (const path of ['/bomb.png', '/bomb-then-noise.png']) {
      expect(await checkRemotePhoto(`${base}${path}`, allowTestHost), path).toEqual({
        ok: false,
        code: 'pixel_limit',
        reason: pixelLimitReason(60_000, 60_000),
      });
    }
    expect(pixelLimitReason(60_000, 60_000)).toBe(
      '60000 x 60000 is over the limit of 120 megapixels (a decompression bomb?)',
    );
  });

  it('reads a body that says no size and never ends only as far as the check needs, then hangs up', async () => {
    expect(await checkRemotePhoto(`${base}/endless.png`, allowTestHost)).toEqual({
      ok: true,
      width: 900,
      height: 700,
    });
    await expect.poll(() => endless.closed, { timeout: 5000 }).toBe(true);
    // Socket buffers let the host write ahead of what was read: far short of the 40 MB limit all the same.
    expect(endless.written).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('a catalog naming addresses that are not public', () => {
  it('turns each away with its reason and asks none of them, nor anyone', async () => {
    const catalog = join(dir, 'hostile.csv');
    await writeFile(
      catalog,
      [
        'product,url',
        'Metadata,http://169.254.169.254/latest/meta-data/iam/photo.jpg',
        'Router,http://192.168.1.1/a.jpg',
        'Mapped,http://[::ffff:10.0.0.1]/a.jpg',
        `Here,${base}/declares-20gb.png`,
      ].join('\n'),
    );
    const hungUpBefore = hungUp.size;
    const plan = await scanInputs([catalog], { cacheDir: join(dir, 'cache') });
    expect(plan.products).toEqual([]);
    const refused = plan.problems.filter((problem) => problem.code === 'not_public');
    expect(refused.map((problem) => [problem.file, problem.reason])).toEqual([
      [
        'http://169.254.169.254/latest/meta-data/iam/photo.jpg',
        'http://169.254.169.254/latest/meta-data/iam/photo.jpg points at the cloud metadata address (169.254.169.254); Adbatch fetches only public addresses. To allow it: --allow-host 169.254.169.254, or add it to Allowed hosts in Settings',
      ],
      [
        'http://192.168.1.1/a.jpg',
        'http://192.168.1.1/a.jpg points at a private address (192.168.1.1) on your network; Adbatch fetches only public addresses. To allow it: --allow-host 192.168.1.1, or add it to Allowed hosts in Settings',
      ],
      [
        'http://[::ffff:10.0.0.1]/a.jpg',
        'http://[::ffff:a00:1]/a.jpg points at a private address (::ffff:a00:1) on your network; Adbatch fetches only public addresses. To allow it: --allow-host [::ffff:a00:1], or add it to Allowed hosts in Settings',
      ],
      [
        `${base}/declares-20gb.png`,
        `${base}/declares-20gb.png points at a loopback address (this computer) (127.0.0.1); Adbatch fetches only public addresses. To allow it: --allow-host ${new URL(base).host}, or add it to Allowed hosts in Settings`,
      ],
    ]);
    // This computer's host, not allowed in this scan, was not asked either.
    expect(hungUp.size).toBe(hungUpBefore);
  });
});
