import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { MAX_S3_URL_TTL_SECONDS } from '../../shared/contract/hosting.ts';
import { mapLimit } from '../util/map-limit.ts';
import { photoContentType } from './content-types.ts';
import type { PhotoHost } from './photo-host.ts';

// Makes local photos reachable by a remote service through S3-compatible storage (AWS S3, Cloudflare R2,
// Backblaze B2, MinIO). Objects are keyed by the SHA-256 of their content, so a photo is stored once however
// many paths or runs refer to it, and an object never changes once written: no versioning, no stale caches.

export const DEFAULT_S3_PREFIX = 'adbatch/';
export const DEFAULT_S3_URL_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_S3_CONCURRENCY = 4;

export interface S3HostingConfig {
  bucket: string;
  /** Taken from AWS_REGION / the AWS profile when absent; for a custom endpoint, guessed from it. */
  region?: string;
  /** The S3 API address of an S3-compatible store, e.g. `https://<account>.r2.cloudflarestorage.com`. */
  endpoint?: string;
  /** Bucket in the path rather than the host name; on by default when `endpoint` is set. */
  forcePathStyle?: boolean;
  /** Prepended to every key; `adbatch/` by default. A `/` is appended when missing. */
  prefix?: string;
  /** Where the bucket is publicly readable (e.g. a CDN or an r2.dev address): URLs are `<base>/<key>`. */
  publicBaseUrl?: string;
  /** How long a presigned URL stays valid; 24 h by default, at most 7 days. */
  urlTtlSeconds?: number;
  /** When absent, the SDK's default chain is used (AWS_ACCESS_KEY_ID…, AWS_PROFILE, SSO, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Photos hashed or uploaded at the same time; 4 by default. */
  concurrency?: number;
}

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === ''
        );
      } catch {
        return false;
      }
    }, `${what} must be an http:// or https:// address without a query or fragment`);

export const s3HostingConfigSchema = z.strictObject({
  bucket: z
    .string()
    .trim()
    .min(1, 'the bucket name is required')
    .regex(/^[^/\s]+$/, 'a bucket name has no slashes or spaces'),
  region: z.string().trim().min(1).optional(),
  endpoint: httpUrl('endpoint').optional(),
  forcePathStyle: z.boolean().optional(),
  prefix: z.string().default(DEFAULT_S3_PREFIX),
  publicBaseUrl: httpUrl('publicBaseUrl').optional(),
  urlTtlSeconds: z
    .number()
    .int()
    .min(60, 'urlTtlSeconds must be at least 60')
    .max(MAX_S3_URL_TTL_SECONDS, `urlTtlSeconds must be at most ${MAX_S3_URL_TTL_SECONDS} (7 days)`)
    .default(DEFAULT_S3_URL_TTL_SECONDS),
  // Not strict: the SDK adds bookkeeping fields ($source…) to credential objects it is handed, and
  // credentials from an SDK provider carry more (expiration…); only these three matter here.
  credentials: z
    .object({
      accessKeyId: z.string().trim().min(1, 'the access key ID is required'),
      secretAccessKey: z.string().min(1, 'the secret access key is required'),
      sessionToken: z.string().min(1).optional(),
    })
    .optional(),
  concurrency: z.number().int().min(1).max(32).default(DEFAULT_S3_CONCURRENCY),
});

/** The config with its defaults applied; throws an Error listing every invalid setting. */
export function parseS3Config(input: unknown): S3HostingConfig {
  const parsed = s3HostingConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`,
    );
    throw new Error(`The S3 hosting settings are invalid:\n  ${issues.join('\n  ')}`);
  }
  return parsed.data;
}

export type S3HostingErrorKind =
  | 'file_unreadable'
  | 'file_changed'
  | 'no_such_bucket'
  | 'access_denied'
  | 'invalid_access_key'
  | 'signature_mismatch'
  | 'expired_credentials'
  | 'wrong_region'
  | 'no_credentials'
  | 'no_region'
  | 'unreachable'
  | 'network'
  | 'storage';

export class S3HostingError extends Error {
  override readonly name = 'S3HostingError';
  constructor(
    readonly kind: S3HostingErrorKind,
    /** The photo concerned. */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// R2 and B2 sign with their own region names; anything else S3-compatible (MinIO, s3rver…) takes us-east-1.
function regionForEndpoint(endpoint: string): string {
  const host = new URL(endpoint).hostname;
  if (host.endsWith('.r2.cloudflarestorage.com')) return 'auto';
  return /^s3\.([a-z0-9-]+)\.backblazeb2\.com$/.exec(host)?.[1] ?? 'us-east-1';
}

function clientConfig(config: S3HostingConfig, region: string | undefined): S3ClientConfig {
  const result: S3ClientConfig = {
    forcePathStyle: config.forcePathStyle ?? config.endpoint !== undefined,
    // The SDK's defaults (WHEN_SUPPORTED) add CRC32 headers to every upload, which R2 and B2 have rejected,
    // and checksum parameters to presigned GETs (each setting adds its own). Integrity comes from
    // x-amz-content-sha256 instead (see `put`).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without these a silent endpoint hangs an upload forever; the idle limit still allows a slow link.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
  };
  // Set only when given: an explicit undefined would keep the SDK from its own default chains.
  if (region) result.region = region;
  if (config.endpoint) result.endpoint = config.endpoint;
  if (config.credentials) result.credentials = config.credentials;
  return result;
}

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+/, '');
  return trimmed === '' || trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

function errorCode(error: unknown): string | undefined {
  const value = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | null;
  if (!value || typeof value !== 'object') return undefined;
  if (typeof value.code === 'string') return value.code;
  // Happy-eyeballs connects fail with an AggregateError whose parts carry the codes.
  return errorCode(value.cause) ?? (value.errors ? errorCode(value.errors[0]) : undefined);
}

function fileFailure(path: string, error: unknown): S3HostingError {
  const code = errorCode(error);
  const reason =
    code === 'ENOENT'
      ? 'the file does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a folder, not a file'
          : (error as Error).message;
  return new S3HostingError('file_unreadable', path, `Could not read "${path}": ${reason}.`, {
    cause: error,
  });
}

interface Known {
  key: string;
  size: number;
  mtimeMs: number;
}

interface Ensured {
  key: string;
  /** Bytes this call sent: 0 when the object was there or another call is sending it. */
  sent: number;
}

/** Runs at most `max` tasks at once; a finished task hands its slot straight to the next in line. */
function limiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < max) active++;
    else await new Promise<void>((resolveSlot) => waiting.push(resolveSlot));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

async function readAndHash(path: string, keep: boolean): Promise<{ hex: string; bytes: Buffer | null }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    if (keep) chunks.push(chunk as Buffer);
  }
  return { hex: hash.digest('hex'), bytes: keep ? Buffer.concat(chunks) : null };
}

function extensionOf(path: string): string {
  const ext = extname(path).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/**
 * The AWS SDK, loaded on the first request to the storage: it is the largest library Adbatch loads (over a
 * second at start-up on a busy machine), and most runs never use storage (`adbatch status`, the Sandbox).
 */
async function loadSdk() {
  const [sdk, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...sdk, getSignedUrl: presigner.getSignedUrl };
}

export function createS3Host(input: S3HostingConfig): PhotoHost {
  const config = parseS3Config(input);
  const bucket = config.bucket;
  const prefix = normalisePrefix(config.prefix ?? DEFAULT_S3_PREFIX);
  const ttl = config.urlTtlSeconds ?? DEFAULT_S3_URL_TTL_SECONDS;
  const concurrency = config.concurrency ?? DEFAULT_S3_CONCURRENCY;
  const publicBase = config.publicBaseUrl?.replace(/\/+$/, '');
  const region = config.region ?? (config.endpoint ? regionForEndpoint(config.endpoint) : undefined);
  let connection: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | null = null;
  const connect = () => {
    connection ??= loadSdk().then((sdk) => ({ sdk, client: new sdk.S3Client(clientConfig(config, region)) }));
    return connection;
  };
  const where = config.endpoint ? new URL(config.endpoint).origin : `AWS S3${region ? ` (${region})` : ''}`;
  const limit = limiter(concurrency);

  // Per absolute path, its key as of a size and mtime: a photo edited since is hashed again.
  const known = new Map<string, Promise<Known>>();
  // Keys in the bucket or on their way there, so identical photos at different paths are sent once.
  const stored = new Map<string, Promise<number>>();

  const storageFailure = (path: string, action: string, error: unknown): S3HostingError => {
    const err = error as {
      name?: string;
      message?: string;
      $metadata?: { httpStatusCode?: number };
      $response?: { headers?: Record<string, string | undefined> };
    };
    const name = err?.name ?? '';
    const status = err?.$metadata?.httpStatusCode;
    const code = errorCode(error);
    const fail = (kind: S3HostingErrorKind, reason: string) =>
      new S3HostingError(
        kind,
        path,
        `Could not ${action} "${path}" (bucket "${bucket}" at ${where}): ${reason}.`,
        {
          cause: error,
        },
      );
    if (code === 'ECONNREFUSED')
      return fail('unreachable', `nothing is listening at ${where} (connection refused)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return fail('unreachable', `the host name of ${where} could not be resolved (${code})`);
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
      return fail('unreachable', `${where} cannot be reached from this network (${code})`);
    if (name === 'TimeoutError' || code === 'ETIMEDOUT' || name === 'RequestTimeout')
      return fail('network', `${where} did not answer in time`);
    if (code === 'ECONNRESET' || code === 'EPIPE')
      return fail('network', `the connection to ${where} was cut (${code})`);
    // AWS answers 301 (bodiless for a HEAD) when the bucket lives in another region than the one signed for.
    if (
      status === 301 ||
      name === 'PermanentRedirect' ||
      name === 'AuthorizationHeaderMalformed' ||
      name === 'IllegalLocationConstraintException'
    ) {
      const actual = err.$response?.headers?.['x-amz-bucket-region'];
      return fail(
        'wrong_region',
        `the bucket is in ${actual ? `region ${actual}` : 'another region'}, not ${region ?? 'the default one'}; set the region to the bucket's`,
      );
    }
    switch (name) {
      case 'NoSuchBucket':
        return fail(
          'no_such_bucket',
          `the bucket does not exist (NoSuchBucket); check the bucket name${config.endpoint ? ' and endpoint' : ' and region'}`,
        );
      case 'AccessDenied':
      case 'AllAccessDisabled':
      case 'AccountProblem':
        return fail(
          'access_denied',
          `access denied (${name}): these credentials may not write to this bucket (they need s3:PutObject${publicBase ? '' : ' and s3:GetObject'})`,
        );
      case 'InvalidAccessKeyId':
        return fail('invalid_access_key', `the access key ID is not known to ${where} (InvalidAccessKeyId)`);
      case 'SignatureDoesNotMatch':
        return fail(
          'signature_mismatch',
          'the secret access key is wrong for this access key ID (SignatureDoesNotMatch)',
        );
      case 'ExpiredToken':
      case 'TokenRefreshRequired':
      case 'InvalidToken':
        return fail('expired_credentials', `the session credentials have expired or are invalid (${name})`);
      case 'CredentialsProviderError':
        return fail(
          'no_credentials',
          'no credentials were found: set an access key in the settings, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) in the environment',
        );
    }
    if (/region is missing/i.test(err?.message ?? ''))
      return fail('no_region', 'no region is set: set one in the settings or AWS_REGION in the environment');
    if (status === 403)
      return fail(
        'access_denied',
        `access denied (HTTP 403${name && name !== 'Unknown' ? `, ${name}` : ''})`,
      );
    const detail = [
      name && name !== 'Error' && name !== 'Unknown' ? name : '',
      status ? `HTTP ${status}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return fail(
      'storage',
      `${err?.message || 'the storage answered with an error'}${detail ? ` (${detail})` : ''}`,
    );
  };

  const keyOf = async (path: string): Promise<Known> => {
    let info: Stats;
    try {
      info = await stat(path);
    } catch (error) {
      throw fileFailure(path, error);
    }
    if (!info.isFile())
      throw new S3HostingError('file_unreadable', path, `Could not read "${path}": it is not a file.`);
    const previous = await known.get(path)?.catch(() => undefined);
    if (previous && previous.size === info.size && previous.mtimeMs === info.mtimeMs) return previous;
    const hashing = limit(async () => {
      try {
        const { hex } = await readAndHash(path, false);
        return { key: `${prefix}${hex}${extensionOf(path)}`, size: info.size, mtimeMs: info.mtimeMs };
      } catch (error) {
        throw fileFailure(path, error);
      }
    });
    known.set(path, hashing);
    hashing.catch(() => {
      if (known.get(path) === hashing) known.delete(path);
    });
    return hashing;
  };

  const put = async (path: string, key: string): Promise<number> => {
    let read: { hex: string; bytes: Buffer | null };
    try {
      read = await readAndHash(path, true);
    } catch (error) {
      throw fileFailure(path, error);
    }
    const bytes = read.bytes!;
    // The key names the content: uploading different bytes under it would hand out a wrong photo forever.
    if (key !== `${prefix}${read.hex}${extensionOf(path)}`)
      throw new S3HostingError(
        'file_changed',
        path,
        `Could not upload "${path}": the file changed while it was being uploaded; try again.`,
      );
    // A Buffer with its length, not a stream: a stream makes the SDK use aws-chunked encoding, which many
    // S3-compatible stores do not accept.
    const { sdk, client } = await connect();
    const command = new sdk.PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: bytes,
      ContentLength: bytes.length,
      ContentType: photoContentType(path),
      CacheControl: 'public, max-age=31536000, immutable',
    });
    // The signer trusts a payload hash already present rather than hashing the whole body again in one
    // synchronous call; the store checks it against the bytes it receives.
    command.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers) request.headers['x-amz-content-sha256'] = read.hex;
        return next(args);
      },
      { step: 'build', name: 'adbatchPayloadHash' },
    );
    try {
      await client.send(command);
    } catch (error) {
      throw storageFailure(path, 'upload', error);
    }
    return bytes.length;
  };

  const storeOnce = async (path: string, { key, size }: Known): Promise<number> => {
    const { sdk, client } = await connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
      // Same key, same content, unless an earlier upload was cut short or the object was overwritten.
      if (head.ContentLength === size) return 0;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // A HEAD answer has no body, so a 403 does not say why; AWS also answers 403 for a missing key when
      // the credentials may not list the bucket. The PUT either works or fails with a precise reason.
      if (status !== 404 && status !== 403) throw storageFailure(path, 'upload', error);
    }
    return put(path, key);
  };

  const ensure = async (rawPath: string): Promise<Ensured> => {
    const path = resolve(rawPath);
    const entry = await keyOf(path);
    const pending = stored.get(entry.key);
    if (pending) {
      try {
        await pending;
      } catch {
        // Another path's upload of the same content failed (and was forgotten): try again for this one, so
        // the error, if any, names this file.
        return ensure(rawPath);
      }
      return { key: entry.key, sent: 0 };
    }
    const storing = limit(() => storeOnce(path, entry));
    stored.set(entry.key, storing);
    storing.catch(() => {
      if (stored.get(entry.key) === storing) stored.delete(entry.key);
    });
    return { key: entry.key, sent: await storing };
  };

  const urlOf = async (path: string, key: string): Promise<string> => {
    if (publicBase) return `${publicBase}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const { sdk, client } = await connect();
    try {
      return await sdk.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: ttl,
      });
    } catch (error) {
      throw storageFailure(path, 'sign a URL for', error);
    }
  };

  return {
    persistent: true,
    async prepare(paths, onProgress) {
      const total = paths.length;
      let done = 0;
      let bytesSent = 0;
      onProgress?.({ done, total, bytesSent });
      // mapLimit stops starting photos at the first failure: it is usually the bucket's or the
      // credentials', and would repeat for every photo left.
      await mapLimit(paths, concurrency, async (path) => {
        const { sent } = await ensure(path);
        bytesSent += sent;
        onProgress?.({ done: ++done, total, bytesSent });
      });
    },
    async urlFor(path) {
      const { key } = await ensure(path);
      return urlOf(resolve(path), key);
    },
    async close() {
      (await connection)?.client.destroy();
    },
  };
}
