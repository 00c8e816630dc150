import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src-main/core/api/index.ts';
import type { HostingProgress, PhotoHost } from '../../../src-main/core/hosting/photo-host.ts';
import {
  createS3Host,
  parseS3Config,
  type S3HostingConfig,
  S3HostingError,
} from '../../../src-main/core/hosting/s3.ts';
import { S3RVER_CREDENTIALS, type S3Server, startS3Server } from '../../support/s3-server.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../support/static-server.ts';

// The S3 host against a real S3 implementation (s3rver, on 127.0.0.1 and a temp folder) over real HTTP:
// what lands in the bucket, deduplication by content, the URLs it hands out, its errors, and the sandbox
// completing a shoot from those URLs. A counting proxy in front of s3rver tells which requests were made.

const BUCKET = 'photos';
// s3rver's built-in account.
const CREDENTIALS = S3RVER_CREDENTIALS;
const photo = (name: keyof typeof PRODUCT_PHOTOS) => join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS[name]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface CountingProxy {
  endpoint: string;
  /** Requests forwarded so far, as `METHOD /path`. */
  requests: string[];
  /** The headers of each PUT, in order. */
  putHeaders: IncomingHttpHeaders[];
  /** The most PUTs that were in flight at once. */
  maxConcurrentPuts: number;
  /** Each PUT is held this long before it is forwarded, so overlapping uploads really overlap. */
  putDelayMs: number;
  reset(): void;
  close(): Promise<void>;
}

async function startCountingProxy(target: number): Promise<CountingProxy> {
  let inFlight = 0;
  const proxy: CountingProxy = {
    endpoint: '',
    requests: [],
    putHeaders: [],
    maxConcurrentPuts: 0,
    putDelayMs: 0,
    reset() {
      proxy.requests = [];
      proxy.putHeaders = [];
      proxy.maxConcurrentPuts = 0;
      proxy.putDelayMs = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(async (req, res) => {
    const isPut = req.method === 'PUT';
    proxy.requests.push(`${req.method} ${req.url?.split('?')[0]}`);
    if (isPut) {
      proxy.putHeaders.push(req.headers);
      inFlight++;
      proxy.maxConcurrentPuts = Math.max(proxy.maxConcurrentPuts, inFlight);
      await new Promise((wait) => setTimeout(wait, proxy.putDelayMs));
    }
    const { expect: _, ...headers } = req.headers;
    const upstream = request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => {
          if (isPut) inFlight--;
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** An "S3" that answers every request with one S3 error document, as AWS does for a bad signature. */
async function startErrorEndpoint(status: number, code: string, message: string): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
    res.writeHead(status, {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(body),
      // What AWS adds to a wrong-region answer.
      ...(status === 301 ? { 'x-amz-bucket-region': 'eu-west-2' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

async function failure(promise: Promise<unknown>): Promise<S3HostingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(S3HostingError);
    return error as S3HostingError;
  }
  throw new Error('expected a failure');
}

let s3rver: S3Server;
let endpoint: string;
let proxy: CountingProxy;
let work: string;
let reader: S3Client;
const hosts: PhotoHost[] = [];

function host(config: Partial<S3HostingConfig> = {}): PhotoHost {
  const created = createS3Host({ bucket: BUCKET, endpoint, credentials: CREDENTIALS, ...config });
  hosts.push(created);
  return created;
}

/** A fresh file of random bytes in the work folder. */
async function randomFile(name: string, size = 2048): Promise<string> {
  const path = join(work, `${randomBytes(4).toString('hex')}-${name}`);
  await writeFile(path, randomBytes(size));
  return path;
}

async function getObject(key: string): Promise<{ bytes: Buffer; contentType: string | undefined }> {
  const object = await reader.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return { bytes: Buffer.from(await object.Body!.transformToByteArray()), contentType: object.ContentType };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'adbatch-s3-'));
  s3rver = await startS3Server(join(work, 'store'), [BUCKET]);
  const port = s3rver.port;
  endpoint = s3rver.endpoint;
  proxy = await startCountingProxy(port);
  reader = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    // A copy: the SDK writes bookkeeping fields into the credentials object it is given.
    credentials: { ...CREDENTIALS },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

afterAll(async () => {
  await Promise.all(hosts.map((created) => created.close()));
  reader?.destroy();
  await proxy?.close();
  await s3rver?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

beforeEach(() => proxy.reset());

describe('uploading', () => {
  it('stores a photo under its content hash with its bytes and content type', async () => {
    const path = photo('hat');
    const bytes = await readFile(path);
    const events: HostingProgress[] = [];
    await host().prepare([path], (progress) => events.push({ ...progress }));

    const stored = await getObject(`adbatch/${sha256(bytes)}.png`);
    expect(stored.contentType).toBe('image/png');
    expect(stored.bytes.equals(bytes)).toBe(true);
    expect(events.at(-1)).toEqual({ done: 1, total: 1, bytesSent: bytes.length });
  });

  it('lower-cases the extension, types by it, and honours a custom prefix', async () => {
    const source = await readFile(photo('mug'));
    const path = join(work, 'Shot.JPEG');
    await writeFile(path, source);
    await host({ prefix: 'team/run-1' }).prepare([path]);
    const stored = await getObject(`team/run-1/${sha256(source)}.jpeg`);
    expect(stored.contentType).toBe('image/jpeg');
    expect(stored.bytes.equals(source)).toBe(true);
  });

  it('sends a photo of several MB as one plain PUT: a length, its SHA-256, no chunked encoding or CRC', async () => {
    const path = await randomFile('big.png', 3 * 1024 * 1024);
    const bytes = await readFile(path);
    await host({ endpoint: proxy.endpoint }).prepare([path]);

    expect(proxy.putHeaders).toHaveLength(1);
    const headers = proxy.putHeaders[0]!;
    expect(headers['content-length']).toBe(String(bytes.length));
    expect(headers['transfer-encoding']).toBeUndefined();
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers['x-amz-content-sha256']).toBe(sha256(bytes));
    expect(
      Object.keys(headers).filter((name) => /checksum|decoded-content-length|trailer/.test(name)),
    ).toEqual([]);
    expect((await getObject(`adbatch/${sha256(bytes)}.png`)).bytes.equals(bytes)).toBe(true);
  });

  it('sends identical photos at different paths once, and nothing on a second prepare', async () => {
    const one = await randomFile('a.png', 10_000);
    const two = join(work, 'copy-of-a.png');
    await copyFile(one, two);
    const other = await randomFile('b.png', 3_000);
    const s3 = host({ endpoint: proxy.endpoint });

    const events: HostingProgress[] = [];
    await s3.prepare([one, two, other], (progress) => events.push({ ...progress }));
    expect(events.at(-1)).toEqual({ done: 3, total: 3, bytesSent: 13_000 });
    expect(proxy.requests.filter((line) => line.startsWith('PUT'))).toHaveLength(2);

    proxy.reset();
    const again: HostingProgress[] = [];
    await s3.prepare([one, two, other], (progress) => again.push({ ...progress }));
    expect(again.at(-1)).toEqual({ done: 3, total: 3, bytesSent: 0 });
    // Known from the first prepare: not hashed against the bucket again.
    expect(proxy.requests).toEqual([]);
  });

  it('finds what an earlier host uploaded with one HEAD and sends nothing', async () => {
    const path = await randomFile('c.png', 5_000);
    await host().prepare([path]);

    const events: HostingProgress[] = [];
    await host({ endpoint: proxy.endpoint }).prepare([path], (progress) => events.push({ ...progress }));
    expect(events.at(-1)).toEqual({ done: 1, total: 1, bytesSent: 0 });
    expect(proxy.requests).toEqual([`HEAD /${BUCKET}/adbatch/${sha256(await readFile(path))}.png`]);
  });

  it('uploads again when the object in the bucket is not the whole photo', async () => {
    const path = await randomFile('d.png', 4_000);
    const bytes = await readFile(path);
    const key = `adbatch/${sha256(bytes)}.png`;
    // A truncated object under the right key, as an interrupted copy by another tool could leave.
    await reader.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: bytes.subarray(0, 100) }));

    const events: HostingProgress[] = [];
    await host().prepare([path], (progress) => events.push({ ...progress }));
    expect(events.at(-1)?.bytesSent).toBe(4_000);
    expect((await getObject(key)).bytes.equals(bytes)).toBe(true);
  });

  it('reports progress up to done === total and never runs more uploads than the concurrency', async () => {
    const paths = await Promise.all(
      Array.from({ length: 9 }, (_, index) => randomFile(`p${index}.png`, 1000)),
    );
    proxy.putDelayMs = 150;
    const events: HostingProgress[] = [];
    await host({ endpoint: proxy.endpoint, concurrency: 3 }).prepare(paths, (progress) =>
      events.push({ ...progress }),
    );

    expect(events[0]).toEqual({ done: 0, total: 9, bytesSent: 0 });
    expect(events.at(-1)).toEqual({ done: 9, total: 9, bytesSent: 9000 });
    expect(events.map((event) => event.done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(proxy.requests.filter((line) => line.startsWith('PUT'))).toHaveLength(9);
    expect(proxy.maxConcurrentPuts).toBeLessThanOrEqual(3);
    // The bound binds: uploads do overlap up to it, they are not simply sent one by one.
    expect(proxy.maxConcurrentPuts).toBeGreaterThanOrEqual(2);
  });

  it('bounds uploads started by urlFor alone as well', async () => {
    const paths = await Promise.all(
      Array.from({ length: 6 }, (_, index) => randomFile(`u${index}.png`, 500)),
    );
    proxy.putDelayMs = 100;
    const s3 = host({ endpoint: proxy.endpoint, concurrency: 2 });
    const urls = await Promise.all(paths.map((path) => s3.urlFor(path)));
    expect(new Set(urls).size).toBe(6);
    expect(proxy.maxConcurrentPuts).toBeLessThanOrEqual(2);
  });

  it('reports done === total at once for nothing to prepare', async () => {
    const events: HostingProgress[] = [];
    await host().prepare([], (progress) => events.push({ ...progress }));
    expect(events).toEqual([{ done: 0, total: 0, bytesSent: 0 }]);
  });
});

describe('URLs', () => {
  it('hands out a presigned URL that serves the exact bytes for 24 h by default, ranges included', async () => {
    const path = photo('capRed');
    const bytes = await readFile(path);
    const s3 = host({ endpoint: proxy.endpoint });
    await s3.prepare([path]);
    proxy.reset();
    const url = await s3.urlFor(path);
    // Signing is local: no re-hash against the bucket, no request at all.
    expect(proxy.requests).toEqual([]);

    const parsed = new URL(url);
    expect(parsed.pathname).toBe(`/${BUCKET}/adbatch/${sha256(bytes)}.png`);
    expect(parsed.searchParams.get('X-Amz-Expires')).toBe('86400');
    expect(parsed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // The SDK's checksum defaults would add x-amz-checksum-mode (and an empty body's CRC32) to the query.
    expect([...parsed.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await fetch(url, { headers: { range: 'bytes=100-1123' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 1124))).toBe(true);
  });

  it('signs for the configured TTL and uploads on urlFor without a prepare', async () => {
    const path = await randomFile('ttl.webp', 1234);
    const url = await host({ urlTtlSeconds: 600 }).urlFor(path);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(path))).toBe(true);
  });

  it('hands out <publicBaseUrl>/<key> without a signature for a public bucket', async () => {
    const path = photo('tote');
    const bytes = await readFile(path);
    const key = `adbatch/${sha256(bytes)}.png`;
    expect(await host({ publicBaseUrl: 'https://cdn.example.com/shop/' }).urlFor(path)).toBe(
      `https://cdn.example.com/shop/${key}`,
    );

    // s3rver serves anonymous GETs, like a public bucket: the unsigned URL really works.
    const url = await host({ publicBaseUrl: `${endpoint}/${BUCKET}` }).urlFor(path);
    expect(url).toBe(`${endpoint}/${BUCKET}/${key}`);
    const response = await fetch(url);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('notices a photo edited since it was hashed', async () => {
    const path = await randomFile('edited.png', 800);
    const s3 = host();
    const before = await s3.urlFor(path);
    const replacement = randomBytes(900);
    await writeFile(path, replacement);
    const after = await s3.urlFor(path);
    expect(new URL(after).pathname).not.toBe(new URL(before).pathname);
    expect(Buffer.from(await (await fetch(after)).arrayBuffer()).equals(replacement)).toBe(true);
  });
});

describe('errors', () => {
  it('names the file and says the bucket does not exist', async () => {
    const path = photo('hat');
    const error = await failure(host({ bucket: 'no-such-bucket' }).prepare([path]));
    expect(error.kind).toBe('no_such_bucket');
    expect(error.path).toBe(path);
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/bucket does not exist/);
    expect(error.message).toContain('"no-such-bucket"');
  });

  it('says the access key ID is unknown', async () => {
    const error = await failure(
      host({ credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'S3RVER' } }).urlFor(
        await randomFile('k.png'),
      ),
    );
    expect(error.kind).toBe('invalid_access_key');
    expect(error.message).toMatch(/access key ID is not known to http:\/\/127\.0\.0\.1:\d+/);
  });

  // A wrong secret key (SignatureDoesNotMatch) comes from a stand-in endpoint giving AWS's answer: s3rver
  // 3.7.1 does not verify SigV4 signatures at all (lib/middleware/authentication.js: "Signature version 4
  // calculation is unimplemented"), so it accepts any secret.
  it.each([
    [403, 'SignatureDoesNotMatch', 'signature_mismatch', /secret access key is wrong/],
    [403, 'AccessDenied', 'access_denied', /access denied \(AccessDenied\).*s3:PutObject and s3:GetObject/],
    [301, 'PermanentRedirect', 'wrong_region', /bucket is in region eu-west-2, not us-east-1/],
  ])('maps an HTTP %i %s answer to a clear message', async (status, code, kind, pattern) => {
    const server = await startErrorEndpoint(status, code, 'refused by the test endpoint');
    try {
      const stub = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const path = await randomFile('stub.png');
      // The HEAD gets a bodiless 403/301; the PUT that follows carries the code.
      const error = await failure(host({ endpoint: stub }).prepare([path]));
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(pattern);
      expect(error.message).toContain(path);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('says nothing listens at the endpoint', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));

    const path = photo('hat');
    const error = await failure(host({ endpoint: `http://127.0.0.1:${port}` }).prepare([path]));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(`nothing is listening at http://127.0.0.1:${port} (connection refused)`);
    expect(error.message).toContain(path);
  });

  it('says a photo cannot be read, and stops starting others', async () => {
    const missing = join(work, 'missing.png');
    const error = await failure(
      host({ endpoint: proxy.endpoint, concurrency: 1 }).prepare([missing, await randomFile('later.png')]),
    );
    expect(error.kind).toBe('file_unreadable');
    expect(error.message).toBe(`Could not read "${missing}": the file does not exist.`);
    expect(proxy.requests).toEqual([]);
  });
});

describe('settings', () => {
  it('fills in the defaults and reports every invalid field', () => {
    expect(parseS3Config({ bucket: 'photos' })).toEqual({
      bucket: 'photos',
      prefix: 'adbatch/',
      urlTtlSeconds: 86400,
      concurrency: 4,
    });
    expect(() =>
      parseS3Config({
        bucket: '',
        endpoint: 'ftp://x',
        urlTtlSeconds: 8 * 86400,
        concurrency: 0,
        bukket: 'x',
      }),
    ).toThrow(/bucket:[\s\S]*endpoint:[\s\S]*urlTtlSeconds:[\s\S]*concurrency:[\s\S]*bukket/);
    expect(() =>
      createS3Host({ bucket: 'photos', credentials: { accessKeyId: 'a', secretAccessKey: '' } }),
    ).toThrow(/credentials\.secretAccessKey: the secret access key is required/);
  });
});

describe('the sandbox', () => {
  let harness: DefaultHarness;
  beforeAll(async () => {
    harness = await startDefaultHarness();
  });
  afterAll(() => harness?.close());

  it('completes a shoot from presigned URLs of real product photos', async () => {
    const paths = [photo('capGray'), photo('hoodie')];
    const s3 = host();
    await s3.prepare(paths);
    const urls = await Promise.all(paths.map((path) => s3.urlFor(path)));

    const client = new ServiceClient({ baseUrl: harness.sandbox.url, apiKey: harness.keys.personal });
    const created = await client.createShoot({ productImageUrls: urls, style: 'classic', shots: 4 });
    const deadline = Date.now() + 20_000;
    let shoot = created;
    while (shoot.phase === 'running' && Date.now() < deadline) {
      await new Promise((wait) => setTimeout(wait, 25));
      shoot = await client.getShoot(created.id);
    }
    expect(shoot.failure).toBeNull();
    expect(shoot.status).toBe('completed');
    expect(shoot.images).toHaveLength(4);
    // The photos came from the bucket, not from the harness's static server.
    expect(harness.photos.hits()).toEqual([]);

    for (const image of shoot.images) {
      const response = await fetch(image.url!);
      expect(response.status).toBe(200);
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(metadata.format).toBe('jpeg');
      expect(metadata.width).toBeGreaterThan(0);
      expect(metadata.height).toBeGreaterThan(0);
    }
  });
});
