import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PhotoReach } from '../../shared/models.ts';
import { storedLoopbackHost, tryReadStored, UnreadableError } from '../db/stored.ts';
import type { Batch } from '../queue/types.ts';
import { writeAtomically } from '../util/write-atomically.ts';
import { isLoopbackUrl, type LoopbackHost, startLoopbackHost } from './loopback.ts';
import type { PhotoHost } from './photo-host.ts';
import type { PhotoStorage } from './photo-storage.ts';
import { createS3Host, type S3HostingConfig } from './s3.ts';

// How the service reaches a batch's photos on this computer: the loopback host (a service on this machine,
// the Sandbox included) or the photo storage (a bucket), chosen per batch.

export const NO_STORAGE =
  'The service cannot read photos on this computer: set up photo storage in Settings, then start (or resume) the batch.';

const LOOPBACK_STATE_FILE = 'photo-host.json';

/**
 * The loopback host on the same port with the same secret as last time (when the port is free), so its
 * URLs stay valid across a restart: a job created just before a crash can still fetch its photos.
 */
export async function startPersistentLoopbackHost(dataDir: string): Promise<LoopbackHost> {
  const file = join(dataDir, LOOPBACK_STATE_FILE);
  // First run (no file), or an unreadable one: a new secret, on any free port.
  const text = await readFile(file, 'utf8').catch(() => null);
  const read = text === null ? null : tryReadStored(storedLoopbackHost, text, file);
  const saved = read instanceof UnreadableError ? null : read;
  const secret = saved ? Buffer.from(saved.secret, 'hex') : randomBytes(32);
  let host: LoopbackHost;
  try {
    host = await startLoopbackHost({ secret, port: saved?.port ?? 0 });
  } catch {
    // The port was taken meanwhile: new URLs, which jobs not yet sent will use.
    host = await startLoopbackHost({ secret });
  }
  const port = Number(new URL(host.origin).port);
  // Written only when it changes, and whole or not at all: a start killed while truncating the file left
  // it empty, and the next start then took a new secret and port, so the photos of jobs already sent
  // could no longer be fetched.
  if (saved?.port !== port || saved.secret !== secret.toString('hex')) {
    const json = JSON.stringify({ secret: secret.toString('hex'), port });
    await writeAtomically(file, (part) => writeFile(part, json, { mode: 0o600 }));
  }
  return host;
}

export class PhotoReachService {
  private loopback: LoopbackHost | null = null;
  private storageHost: PhotoHost | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly storage: PhotoStorage,
    /** Storage given by the front end for this session (the CLI's --s3-* flags); wins over Settings. */
    private readonly sessionStorage: S3HostingConfig | null,
  ) {}

  async start(): Promise<void> {
    this.loopback ??= await startPersistentLoopbackHost(this.dataDir);
  }

  private storageConfig(): S3HostingConfig | null {
    return this.sessionStorage ?? this.storage.config();
  }

  /**
   * Guess (documented in docs/app.md): storage, once set up in Settings, serves every service account, a
   * service on this machine included (the Sandbox reads from Adbatch itself); without it, only a service on
   * this machine can read photos from Adbatch itself.
   */
  reachOf(sandbox: boolean, baseUrl: string): Exclude<PhotoReach, { kind: 'urls' }> {
    // Storage given for the session (`adbatch run --s3-bucket`) was asked for explicitly: it serves every
    // batch, the Sandbox's included.
    if (this.sessionStorage) return { kind: 'storage', bucket: this.sessionStorage.bucket };
    if (sandbox) return { kind: 'this-computer' };
    const config = this.storageConfig();
    if (config) return { kind: 'storage', bucket: config.bucket };
    return isLoopbackUrl(baseUrl) ? { kind: 'this-computer' } : { kind: 'missing' };
  }

  /** Where a batch's local photos are served from; throws, saying why, when nothing can serve them. */
  hostFor(batch: Batch): PhotoHost {
    const reach = this.reachOf(batch.sandbox, batch.baseUrl);
    if (reach.kind === 'missing') throw new Error(NO_STORAGE);
    if (reach.kind === 'this-computer') {
      if (!this.loopback) throw new Error('the photo host is not started');
      return this.loopback;
    }
    this.storageHost ??= createS3Host(this.storageConfig()!);
    return this.storageHost;
  }

  /**
   * The storage an export uploads to (its Shopify files): the session's, else the one in Settings; null
   * when there is none, or the saved one cannot be read (Settings says why).
   */
  uploadStorage(): S3HostingConfig | null {
    try {
      return this.storageConfig();
    } catch {
      return null;
    }
  }

  /** The storage in Settings changed: the next batch gets a host for the new one. */
  async storageChanged(): Promise<void> {
    const previous = this.storageHost;
    this.storageHost = null;
    await previous?.close();
  }

  async close(): Promise<void> {
    await this.loopback?.close();
    await this.storageHost?.close();
    this.loopback = null;
    this.storageHost = null;
  }
}
