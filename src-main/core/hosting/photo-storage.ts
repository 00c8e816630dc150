import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { PhotoStorageInput, PhotoStorageView } from '../../shared/models.ts';
import type { SecretBox } from '../accounts/secrets.ts';
import { maskApiKey } from '../api/index.ts';
import { AppError } from '../app/errors.ts';
import type { Db } from '../db/open.ts';
import { readStoredValue, storedPhotoStorage, UnreadableError } from '../db/stored.ts';
import { makeFolders } from '../util/make-folders.ts';
import {
  createS3Host,
  DEFAULT_S3_PREFIX,
  DEFAULT_S3_URL_TTL_SECONDS,
  parseS3Config,
  type S3HostingConfig,
  S3HostingError,
} from './s3.ts';

// The storage photos on this computer are uploaded to, so that a remote service can fetch them: kept in
// one row, its secret access key sealed like an API key. A setting is saved only once it has been shown to
// work end to end: a test photo uploaded, then read back over HTTP from the URL the service would be given.
// A saved row that no longer parses (db/stored.ts) is refused with why, wherever it is read: Settings shows
// it, a batch that needs it is not started; setting the storage again or removing it replaces the row.

type Row = z.output<typeof storedPhotoStorage>;

const HOUR_S = 3600;
/** How long the check waits for the storage to hand back the test photo. */
const READ_BACK_TIMEOUT_MS = 15_000;
/** A 1×1 PNG: the test photo. Its key is its hash, so every check reuses the same tiny object. */
const TEST_PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function toView(row: Row): PhotoStorageView {
  return {
    bucket: row.bucket,
    endpoint: row.endpoint,
    region: row.region,
    prefix: row.prefix,
    publicBaseUrl: row.public_base_url,
    urlTtlHours: Math.round(row.url_ttl_seconds / HOUR_S),
    accessKeyId: row.access_key_id,
    secretHint: row.secret_hint,
    checkedAt: row.checked_at,
  };
}

/** The row checked against what `save` writes; one that does not parse is refused in words. */
function readRow<S extends z.ZodType>(schema: S, row: unknown): z.output<S> {
  try {
    return readStoredValue(schema, row, 'The photo storage saved in this data folder');
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error;
    throw new AppError('internal', `${error.message}. Set the storage up again in Settings, or remove it.`);
  }
}

/** Says what is wrong with a storage setting in words the Settings form can show next to it. */
function invalid(error: unknown): AppError {
  // parseS3Config lists one `field: message` per line after its first, each message naming its field.
  const friendly = (error as Error).message
    .split('\n')
    .slice(1)
    .map((line) =>
      line
        .trim()
        .replace(/^[\w.]+: /, '')
        .replace(/^publicBaseUrl/, 'the public address')
        .replace(/^endpoint/, 'the endpoint'),
    )
    .join('; ');
  return new AppError('bad_request', `These storage settings cannot be used: ${friendly}.`);
}

export class PhotoStorage {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly now: () => number,
  ) {}

  private row(): Row | null {
    const row = this.db.prepare<[], unknown>('SELECT * FROM photo_storage WHERE id = 1').get();
    return row === undefined ? null : readRow(storedPhotoStorage, row);
  }

  get(): PhotoStorageView | null {
    const row = this.row();
    return row ? toView(row) : null;
  }

  /** The saved storage as the S3 host takes it, secret opened: main only, never sent to the renderer. */
  config(): S3HostingConfig | null {
    const row = this.row();
    if (!row) return null;
    const view = toView(row);
    return parseS3Config({
      bucket: view.bucket,
      ...(view.endpoint ? { endpoint: view.endpoint } : {}),
      ...(view.region ? { region: view.region } : {}),
      prefix: view.prefix,
      ...(view.publicBaseUrl ? { publicBaseUrl: view.publicBaseUrl } : {}),
      urlTtlSeconds: row.url_ttl_seconds,
      ...(row.access_key_id && row.sealed_secret
        ? {
            credentials: {
              accessKeyId: row.access_key_id,
              secretAccessKey: this.secrets.open(row.sealed_secret),
            },
          }
        : {}),
    });
  }

  /**
   * The config this input describes, with the saved secret where the input keeps the saved access key ID and
   * gives no secret. Refuses half a credential, and a secret this computer cannot seal.
   */
  resolve(input: PhotoStorageInput): S3HostingConfig {
    const accessKeyId = input.accessKeyId?.trim() || undefined;
    let secretAccessKey = input.secretAccessKey || undefined;
    if (secretAccessKey && !accessKeyId)
      throw new AppError('bad_request', 'A secret access key needs its access key ID.');
    if (accessKeyId && !secretAccessKey) {
      const row = this.db
        .prepare<[], unknown>('SELECT access_key_id, sealed_secret FROM photo_storage WHERE id = 1')
        .get();
      const saved =
        row === undefined
          ? null
          : readRow(storedPhotoStorage.pick({ access_key_id: true, sealed_secret: true }), row);
      if (saved?.access_key_id !== accessKeyId || !saved.sealed_secret)
        throw new AppError('bad_request', 'Enter the secret access key that goes with this access key ID.');
      secretAccessKey = this.secrets.open(saved.sealed_secret);
    }
    if (secretAccessKey && !this.secrets.available()) {
      throw new AppError(
        'encryption_unavailable',
        'This computer offers no secure storage for secrets, so Adbatch will not keep the secret access key (it never stores secrets in the clear). Leave the access key fields empty to use the AWS profile or environment instead.',
      );
    }
    try {
      return parseS3Config({
        bucket: input.bucket,
        ...(input.endpoint ? { endpoint: input.endpoint } : {}),
        ...(input.region?.trim() ? { region: input.region.trim() } : {}),
        prefix: input.prefix?.trim() || DEFAULT_S3_PREFIX,
        ...(input.publicBaseUrl ? { publicBaseUrl: input.publicBaseUrl } : {}),
        urlTtlSeconds: input.urlTtlHours ? input.urlTtlHours * HOUR_S : DEFAULT_S3_URL_TTL_SECONDS,
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
      });
    } catch (error) {
      throw invalid(error);
    }
  }

  save(config: S3HostingConfig): PhotoStorageView {
    const credentials = config.credentials;
    this.db
      .prepare(
        `INSERT OR REPLACE INTO photo_storage (id, bucket, endpoint, region, prefix, public_base_url,
           url_ttl_seconds, access_key_id, sealed_secret, secret_hint, checked_at)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        config.bucket,
        config.endpoint ?? null,
        config.region ?? null,
        config.prefix ?? DEFAULT_S3_PREFIX,
        config.publicBaseUrl ?? null,
        config.urlTtlSeconds ?? DEFAULT_S3_URL_TTL_SECONDS,
        credentials?.accessKeyId ?? null,
        credentials ? this.secrets.seal(credentials.secretAccessKey) : null,
        credentials ? maskApiKey(credentials.secretAccessKey) : null,
        this.now(),
      );
    return this.get()!;
  }

  clear(): void {
    this.db.prepare('DELETE FROM photo_storage').run();
  }
}

/**
 * Uploads the test photo and reads it back from the URL a service would be given: proves the bucket, the
 * credentials, the region, and the public address or presigned links, before any batch relies on them.
 */
export async function checkPhotoStorage(config: S3HostingConfig, workDir: string): Promise<void> {
  await makeFolders(workDir);
  const file = join(workDir, 'storage-check.png');
  await writeFile(file, TEST_PHOTO);
  const host = createS3Host(config);
  try {
    let url: string;
    try {
      await host.prepare([file]);
      url = await host.urlFor(file);
    } catch (error) {
      if (!(error instanceof S3HostingError)) throw error;
      throw new AppError('unreachable', error.message.replace(`"${file}"`, 'a test photo'));
    }
    const readBack = config.publicBaseUrl ? 'the public address' : 'the signed link';
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(READ_BACK_TIMEOUT_MS) });
    } catch (error) {
      throw new AppError(
        'unreachable',
        `The test photo was uploaded, but could not be read back from ${readBack} (${new URL(url).origin}): ${(error as Error).message}.`,
      );
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok || !body.equals(TEST_PHOTO)) {
      throw new AppError(
        'unreachable',
        `The test photo was uploaded, but ${readBack} (${new URL(url).origin}) answered ${response.status}${response.ok ? ' with other content' : ''}: the service could not fetch photos from it.${config.publicBaseUrl ? ' Check that the public address serves this bucket.' : ''}`,
      );
    }
  } finally {
    await host.close();
  }
}
