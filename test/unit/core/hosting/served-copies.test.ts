import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink } from '../../../../src-main/core/hosting/link-check.ts';
import { type LoopbackHost, startLoopbackHost } from '../../../../src-main/core/hosting/loopback.ts';
import { NoWorkingLink, workingLinks } from '../../../../src-main/core/hosting/served-copies.ts';
import type { Asset, Batch } from '../../../../src-main/core/queue/types.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

// Whether a result URL still answers (a GET of its first byte, not a HEAD), and what a video is sent
// instead when it does not: the verified file through the photo host, or nothing at all.

let server: Server;
let origin: string;
let dir: string;
let host: LoopbackHost;
let photo: Buffer;
const seen: Array<{ method: string; range: string | undefined }> = [];

beforeAll(async () => {
  photo = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.hat));
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', range: req.headers.range });
    if (req.url === '/presigned.jpg') {
      // A presigned URL is signed for GET: a HEAD is refused.
      if (req.method === 'HEAD') res.writeHead(403).end();
      else res.writeHead(206, { 'content-range': `bytes 0-0/${photo.length}` }).end(photo.subarray(0, 1));
      return;
    }
    if (req.url === '/no-ranges.jpg') res.writeHead(200, { 'content-length': photo.length }).end(photo);
    else if (req.url === '/moved.jpg') res.writeHead(302, { location: '/presigned.jpg' }).end();
    else if (req.url === '/gone.jpg') res.writeHead(410).end();
    else if (req.url === '/slow.jpg') setTimeout(() => res.writeHead(200).end(), 2_000);
    else if (req.url === '/busy.jpg') res.writeHead(503).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'adbatch-served-'));
  host = await startLoopbackHost();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

describe('checkLink', () => {
  it('asks for the first byte with a GET, so a URL signed for GET answers', async () => {
    seen.length = 0;
    expect(await checkLink(`${origin}/presigned.jpg`)).toEqual({ answers: true });
    expect(seen).toEqual([{ method: 'GET', range: 'bytes=0-0' }]);
  });

  it('takes a server that ignores the range, and follows a redirect', async () => {
    expect(await checkLink(`${origin}/no-ranges.jpg`)).toEqual({ answers: true });
    expect(await checkLink(`${origin}/moved.jpg`)).toEqual({ answers: true });
  });

  it('says why a URL does not answer: its status, a refused connection, no answer in time', async () => {
    expect(await checkLink(`${origin}/gone.jpg`)).toEqual({ answers: false, why: 'HTTP 410', gone: true });
    expect(await checkLink(`${origin}/missing.jpg`)).toEqual({ answers: false, why: 'HTTP 404', gone: true });
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    expect(await checkLink(`http://127.0.0.1:${port}/shot.jpg`)).toEqual({
      answers: false,
      why: 'connection refused',
      gone: false,
    });
    expect(await checkLink(`${origin}/slow.jpg`, 200)).toEqual({
      answers: false,
      why: 'no answer in time',
      gone: false,
    });
  });
});

describe('workingLinks', () => {
  const batch = () => ({ id: 'b1', libraryDir: dir }) as Batch;
  const shot = (idx: number, url: string, sha256: string | null): Asset => ({
    id: (100 + idx) as Asset['id'],
    jobId: 'j1' as Asset['jobId'],
    kind: 'image',
    idx,
    url,
    path: `Batch/001 Hat/shot-${idx + 1}.png`,
    state: sha256 ? 'done' : 'pending',
    bytes: photo.length,
    sha256,
    attempts: 0,
    error: null,
  });
  let sha: string;

  beforeAll(async () => {
    sha = createHash('sha256').update(photo).digest('hex');
    await mkdir(join(dir, 'Batch/001 Hat'), { recursive: true });
    await writeFile(join(dir, 'Batch/001 Hat/shot-1.png'), photo);
    await writeFile(join(dir, 'Batch/001 Hat/shot-2.png'), photo);
  });

  it('keeps a URL that answers and serves the verified file for one that does not, in order', async () => {
    const links = await workingLinks(
      batch(),
      [shot(0, `${origin}/gone.jpg`, sha), shot(1, `${origin}/presigned.jpg`, sha)],
      { check: (url) => checkLink(url), hostFor: () => host },
    );
    expect(links.urls[0]!.startsWith(`${host.origin}/p/`)).toBe(true);
    expect(links.urls[1]).toBe(`${origin}/presigned.jpg`);
    expect(links.served).toEqual([{ assetId: 100, why: 'HTTP 410' }]);
    expect((await checkLink(`${origin}/busy.jpg`)).answers).toBe(false);
    const passing = await workingLinks(batch(), [shot(0, `${origin}/busy.jpg`, sha)], {
      check: (url) => checkLink(url),
      hostFor: () => host,
    });
    expect(passing.urls[0]!.startsWith(`${host.origin}/p/`)).toBe(true);
    const served = await fetch(links.urls[0]!);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('sends the URL as it is when it went unanswered for the moment and there is no copy yet', async () => {
    const links = await workingLinks(batch(), [shot(0, `${origin}/busy.jpg`, null)], {
      check: (url) => checkLink(url),
      hostFor: () => host,
    });
    expect(links).toEqual({ urls: [`${origin}/busy.jpg`], served: [] });
    const gone = workingLinks(batch(), [shot(0, `${origin}/gone.jpg`, null)], {
      check: (url) => checkLink(url),
      hostFor: () => host,
    });
    await expect(gone).rejects.toThrow(/Shot 1 .*\(HTTP 410\), and it was never downloaded/);
  });

  it('refuses a file changed since it was verified, and a batch with no host, saying what to do', async () => {
    const changed = workingLinks(batch(), [shot(0, `${origin}/gone.jpg`, 'f'.repeat(64))], {
      check: (url) => checkLink(url),
      hostFor: () => host,
    });
    await expect(changed).rejects.toBeInstanceOf(NoWorkingLink);
    await expect(changed).rejects.toThrow(/Shot 1 .*\(HTTP 410\), and its file in the library was changed/);
    const noHost = workingLinks(batch(), [shot(1, `${origin}/gone.jpg`, sha)], {
      check: (url) => checkLink(url),
      hostFor: () => {
        throw new Error('no storage');
      },
    });
    await expect(noHost).rejects.toThrow(
      "Shot 2 no longer answers at the service's address (HTTP 410), and the service cannot read its downloaded copy on this computer: set up photo storage in Settings, then retry this video. Nothing was sent and no credit spent.",
    );
  });
});
