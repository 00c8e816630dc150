import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnSandbox } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { S3RVER_CREDENTIALS, type S3Server, startS3Server } from '../../support/s3-server.ts';

// `adbatch run --s3-bucket`: local photos uploaded to S3-compatible storage (a real s3rver on 127.0.0.1),
// the sandbox fetching them by presigned URL, as a remote service would.

let dir: string;
let s3: S3Server;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-s3-run-'));
  s3 = await startS3Server(join(dir, 'store'), ['photos']);
  await makeProductFolders(join(dir, 'products'), 3, 2);
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The CLI's environment: s3rver's keys, as a user's AWS environment would hold them, and its endpoint. */
const s3Env = () => ({
  ...process.env,
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  ADBATCH_S3_ENDPOINT: s3.endpoint,
});

/** `adbatch run` of the product folders on the sandbox, photos uploaded to this bucket. */
const runWithBucket = (bucket: string, name: string) =>
  runOnSandbox(
    [join(dir, 'products')],
    { dataDir: join(dir, `data-${name}`), library: join(dir, `library-${name}`) },
    ['--s3-bucket', bucket],
    s3Env(),
  );

describe('adbatch run --s3-bucket', () => {
  it('uploads each photo once, keyed by its hash, and the shoots complete from presigned URLs', async () => {
    const result = await runWithBucket('photos', 'uploaded');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Uploading photos: 6\/6/);

    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { ...S3RVER_CREDENTIALS },
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'photos' }));
    const keys = (listed.Contents ?? []).map((object) => object.Key!).sort();
    const db = new Database(join(dir, 'data-uploaded', 'adbatch.db'), { readonly: true });
    const hashes = (db.prepare('SELECT photos FROM products').all() as Array<{ photos: string }>).flatMap(
      (row) => (JSON.parse(row.photos) as Array<{ hash: string }>).map((photo) => photo.hash),
    );
    const requests = (db.prepare('SELECT request FROM jobs').all() as Array<{ request: string }>).map(
      (row) => JSON.parse(row.request) as { productImageUrls: string[] },
    );
    const states = db.prepare('SELECT state FROM jobs').all() as Array<{ state: string }>;
    db.close();
    client.destroy();

    expect(keys).toEqual([...new Set(hashes)].map((hash) => `adbatch/${hash}.png`).sort());
    expect(states.every((job) => job.state === 'done')).toBe(true);
    for (const request of requests) {
      for (const url of request.productImageUrls) {
        expect(url.startsWith(`${s3.endpoint}/photos/adbatch/`)).toBe(true);
        expect(url).toContain('X-Amz-Expires=86400');
      }
    }
  });

  it('pauses the batch with the reason the storage gave, sending nothing, when the photos cannot be uploaded', async () => {
    const result = await runWithBucket('missing-bucket', 'missing-bucket');
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(
      /Paused: Could not upload ".+" \(bucket "missing-bucket" at http:\/\/127\.0\.0\.1:\d+\): the bucket does not exist/,
    );
    const db = new Database(join(dir, 'data-missing-bucket', 'adbatch.db'), { readonly: true });
    const batch = db.prepare('SELECT status, status_reason FROM batches').get();
    const states = db.prepare('SELECT state, remote_id FROM jobs').all() as Array<{
      state: string;
      remote_id: string | null;
    }>;
    db.close();
    expect(batch).toEqual({ status: 'paused', status_reason: 'hosting' });
    expect(states).toHaveLength(3);
    expect(states.every((job) => job.state === 'waiting' && job.remote_id === null)).toBe(true);
  });
});
