import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src-main/core/create-core.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { ArgsOf, Channel, EventName, Events } from '../../../src-main/shared/ipc.ts';
import type { PhotoStorageInput, ShootSettingsView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  refusalOf,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { S3RVER_CREDENTIALS, type S3Server, startS3Server } from '../../support/s3-server.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { expectSealed } from '../../support/sealing.ts';
import { memorySecretBox } from '../../support/secret-box.ts';
import { PRODUCT_FIXTURES_DIR, startStaticServer } from '../../support/static-server.ts';
import { untilValue } from '../../support/until.ts';

// Photo storage in the app: set up in Settings (checked end to end, secret sealed), then used by batches on
// a service account, with a real S3-compatible store (s3rver on 127.0.0.1) and a sandbox as the service.

let h: CoreHarness;
let service: Sandbox;
let s3: S3Server;
let dir: string;
// s3rver checks the access key only, so the secret can be one a test can look for.
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
let storage: PhotoStorageInput;
const secrets = memorySecretBox();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-storage-'));
  h = await startCoreHarness({ secrets, allowedHosts: TEST_PHOTO_HOSTS });
  service = await startSandbox({ port: 0, timeScale: 0.02 });
  s3 = await startS3Server(join(dir, 's3'), ['photos']);
  storage = {
    bucket: 'photos',
    endpoint: s3.endpoint,
    accessKeyId: S3RVER_CREDENTIALS.accessKeyId,
    secretAccessKey: SECRET,
  };
});
afterAll(async () => {
  await h?.close();
  await service?.close();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>, core: Core = h.core) =>
  callCore(core, channel, args);
const failure = (channel: string, args: unknown, core: Core = h.core) => refusalOf(core, channel, args);

function collect<E extends EventName>(event: E): Array<Events[E]> {
  const seen: Array<Events[E]> = [];
  h.core.events.on(event, (payload) => seen.push(payload));
  return seen;
}

function bucketKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { ...S3RVER_CREDENTIALS },
  });
  return client
    .send(new ListObjectsV2Command({ Bucket: 'photos' }))
    .then((listed) => (listed.Contents ?? []).map((object) => object.Key!).sort())
    .finally(() => client.destroy());
}

function readDb<T>(sql: string): T[] {
  const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const SHOOT: ShootSettingsView = { ...QUICK_SHOOT, style: 'minimal' };

async function serviceAccount(name: string) {
  const existing = (await call('accounts:list')).find((account) => account.name === name);
  return (
    existing ?? call('accounts:add', { name, baseUrl: service.url, apiKey: defaultKeys(service).personal })
  );
}

/** A quote request for these example products on the "Studio" service account. */
async function studioRequest(products: string[]) {
  const account = await serviceAccount('Studio');
  const scan = await call('ingest:scan', {
    inputs: products.map((name) => join(PRODUCT_FIXTURES_DIR, name)),
  });
  return {
    account,
    scan,
    request: { scanId: scan.scanId, accountId: account.id, shoot: SHOOT, video: null, includeDone: true },
  };
}

function untilSettled(id: string) {
  return untilValue(async () => {
    const batch = await call('batches:get', { id });
    return batch.status === 'finished' || batch.status === 'paused' ? batch : null;
  });
}

describe('setting up photo storage', () => {
  it('refuses storage it cannot use, saying what is wrong, and keeps nothing', async () => {
    expect(await call('storage:get')).toBeNull();
    expect(await failure('storage:set', { ...storage, bucket: 'nope' })).toMatchObject({
      code: 'unreachable',
      message: expect.stringMatching(
        /a test photo \(bucket "nope" at http:\/\/127\.0\.0\.1:\d+\).*does not exist/,
      ),
    });
    expect((await failure('storage:set', { ...storage, accessKeyId: 'WRONG' })).message).toMatch(
      /access key ID is not known/,
    );
    expect((await failure('storage:set', { ...storage, endpoint: 'http://127.0.0.1:1' })).message).toMatch(
      /nothing is listening at http:\/\/127\.0\.0\.1:1/,
    );
    expect((await failure('storage:set', { bucket: 'photos', secretAccessKey: SECRET })).message).toBe(
      'A secret access key needs its access key ID.',
    );
    expect((await failure('storage:set', { bucket: 'photos', accessKeyId: 'S3RVER' })).message).toBe(
      'Enter the secret access key that goes with this access key ID.',
    );
    expect(await failure('storage:set', { ...storage, endpoint: 'ftp://127.0.0.1/' })).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/^storage:set: endpoint/),
    });
    expect((await failure('storage:set', { ...storage, urlTtlHours: 169 })).message).toMatch(/urlTtlHours/);

    // A public address that does not serve the bucket would hand the service links that answer 404.
    const web = await startStaticServer();
    try {
      expect((await failure('storage:set', { ...storage, publicBaseUrl: `${web.url}/cdn` })).message).toMatch(
        /uploaded, but the public address \(http:\/\/127\.0\.0\.1:\d+\) answered 404/,
      );
    } finally {
      await web.close();
    }
    expect(await call('storage:get')).toBeNull();
    expect(readDb('SELECT * FROM photo_storage')).toEqual([]);
  });

  it('refuses to keep a secret where the computer cannot seal it', async () => {
    const bare = await startCoreHarness({ secrets: memorySecretBox(false) });
    try {
      expect(await failure('storage:set', storage, bare.core)).toMatchObject({
        code: 'encryption_unavailable',
        message: expect.stringMatching(/will not keep the secret access key/),
      });
      expect(await call('storage:get', undefined, bare.core)).toBeNull();
      const db = new Database(join(bare.dir, 'data', 'adbatch.db'), { readonly: true });
      expect(db.prepare('SELECT count(*) AS rows FROM photo_storage').get()).toEqual({ rows: 0 });
      db.close();
    } finally {
      await bare.close();
    }
  });

  it('keeps storage that works, its secret sealed and shown masked; the saved secret stays when not retyped', async () => {
    const saved = await call('storage:set', { ...storage, region: 'eu-west-3', urlTtlHours: 2 });
    expect(saved).toEqual({
      bucket: 'photos',
      endpoint: s3.endpoint,
      region: 'eu-west-3',
      prefix: 'adbatch/',
      publicBaseUrl: null,
      urlTtlHours: 2,
      accessKeyId: 'S3RVER',
      secretHint: `…${SECRET.slice(-4)}`,
      checkedAt: expect.any(Number),
    });
    expect(JSON.stringify(await call('storage:get'))).not.toContain(SECRET);
    const [row] = readDb<{ sealed_secret: Buffer }>('SELECT * FROM photo_storage');
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expectSealed(row!.sealed_secret, SECRET, secrets);
    expect(h.logs.join('\n')).not.toContain(SECRET);
    // The check's test photo is in the bucket, under its hash like any photo.
    expect(await bucketKeys()).toEqual([expect.stringMatching(/^adbatch\/[0-9a-f]{64}\.png$/)]);

    const kept = await call('storage:set', {
      bucket: 'photos',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
    });
    expect(kept).toMatchObject({ region: null, urlTtlHours: 24, secretHint: `…${SECRET.slice(-4)}` });
  });
});

describe('a batch on a service account with photo storage', () => {
  it('uploads each photo once, keyed by its hash, shows the upload, and the service fetches them from the bucket', async () => {
    await call('storage:set', storage);
    const { scan, request } = await studioRequest(['hat', 'tote']);
    expect((await call('batches:quote', request)).photos).toEqual({ kind: 'storage', bucket: 'photos' });

    const progress = collect('batches:progress');
    const created = await call('batches:create', { ...request, name: 'Stored' });
    const detail = await untilSettled(created.id);
    expect(detail).toMatchObject({
      status: 'finished',
      done: 2,
      failed: 0,
      statusReason: null,
      upload: null,
    });

    const hashes = readDb<{ photos: string }>(
      `SELECT photos FROM products WHERE batch_id = '${created.id}'`,
    ).flatMap((row) => (JSON.parse(row.photos) as Array<{ hash: string }>).map((photo) => photo.hash));
    const keys = await bucketKeys();
    for (const hash of hashes) expect(keys.filter((key) => key.includes(hash))).toHaveLength(1);
    expect(keys).toHaveLength(new Set(hashes).size + 1);
    const requests = readDb<{ request: string }>(`SELECT request FROM jobs WHERE batch_id = '${created.id}'`);
    for (const { request: body } of requests) {
      for (const url of (JSON.parse(body) as { productImageUrls: string[] }).productImageUrls) {
        expect(url.startsWith(`${s3.endpoint}/photos/adbatch/`)).toBe(true);
        expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('86400');
      }
    }
    // The upload shows from its start and is gone once every photo is in the bucket.
    const photoCount = scan.products.reduce((sum, product) => sum + product.photos.length, 0);
    const uploads = progress.filter((event) => event.id === created.id && event.upload !== null);
    expect(uploads[0]?.upload).toEqual({ done: 0, total: photoCount, bytesSent: 0 });
    for (const event of uploads) expect(event.upload!.done).toBeLessThan(photoCount);
    expect(progress.filter((event) => event.id === created.id).at(-1)?.upload).toBeNull();
  }, 90_000);

  it('pauses a batch whose storage fails, says why without spending, and resumes once it works', async () => {
    await call('storage:set', storage);
    const { request } = await studioRequest(['mug-set']);
    await s3.close();
    let down = true;
    try {
      const changed = collect('batches:changed');
      const created = await call('batches:create', { ...request, name: 'Storage down' });
      const paused = await untilSettled(created.id);
      expect(paused).toMatchObject({ status: 'paused', statusReason: 'hosting', creditsSpent: 0 });
      expect(paused.statusMessage).toMatch(
        /^Could not upload ".+" \(bucket "photos" at http:\/\/127\.0\.0\.1:\d+\): nothing is listening/,
      );
      expect(paused.items[0]!.jobs[0]!.state).toBe('waiting');
      expect(changed.some((event) => event.id === created.id)).toBe(true);

      s3 = await startS3Server(join(dir, 's3'), ['photos'], s3.port);
      down = false;
      await call('batches:resume', { id: created.id });

      const resumed = await untilSettled(created.id);
      expect(resumed).toMatchObject({ status: 'finished', done: 1, statusReason: null, statusMessage: null });
    } finally {
      if (down) s3 = await startS3Server(join(dir, 's3'), ['photos'], s3.port);
    }
  }, 90_000);
});

describe('without photo storage', () => {
  it('a service on this computer reads photos from Adbatch; a remote one is refused before anything is sent', async () => {
    await call('storage:clear');
    expect(await call('storage:get')).toBeNull();
    const { account, request } = await studioRequest(['cap-red']);
    expect((await call('batches:quote', request)).photos).toEqual({ kind: 'this-computer' });
    const local = await call('batches:create', { ...request, name: 'Local service' });
    expect(await untilSettled(local.id)).toMatchObject({ status: 'finished', done: 1 });

    const db = new Database(join(h.dir, 'data', 'adbatch.db'));
    db.prepare('UPDATE accounts SET base_url = ? WHERE id = ?').run(
      'https://ads.example.invalid',
      account.id,
    );
    db.close();
    const before = (await call('batches:list')).length;
    expect(await failure('batches:create', { ...request, name: 'Remote' })).toEqual({
      code: 'bad_request',
      message:
        'The service cannot read photos on this computer: set up photo storage in Settings, then start (or resume) the batch.',
    });
    expect(await call('batches:list')).toHaveLength(before);
  }, 60_000);
});
