import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceClient } from '../core/api/index.ts';
import { openDatabase } from '../core/db/open.ts';
import { isLoopbackUrl, startLoopbackHost } from '../core/hosting/loopback.ts';
import type { PhotoHost } from '../core/hosting/photo-host.ts';
import { createS3Host, type S3HostingConfig } from '../core/hosting/s3.ts';
import { writeManifest } from '../core/manifest.ts';
import { QueueStore } from '../core/queue/store.ts';
import type { Batch } from '../core/queue/types.ts';
import type { RateLimit } from '../core/scheduler/budget.ts';
import { Engine } from '../core/scheduler/engine.ts';
import { type EmbeddedSandbox, startEmbeddedSandbox } from '../sandbox/embedded.ts';
import { EXIT } from './exit-codes.ts';
import { ProgressPrinter } from './progress.ts';

// What `run` and `resume` share: the data dir's database, the service connection (the embedded sandbox or
// a base URL with the key from ADBATCH_API_KEY), photo hosting, the engine, progress and the outcome.

export function openStore(dataDir: string): QueueStore {
  return new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
  sandbox: EmbeddedSandbox | null;
}

export async function connect(options: {
  dataDir: string;
  sandbox: boolean;
  baseUrl?: string;
  timeScale: number;
}): Promise<Connection> {
  if (options.sandbox) {
    const embedded = await startEmbeddedSandbox({ dataDir: options.dataDir, timeScale: options.timeScale });
    return { baseUrl: embedded.url, apiKey: embedded.apiKey, sandbox: embedded };
  }
  const apiKey = process.env.ADBATCH_API_KEY?.trim();
  if (!options.baseUrl)
    throw new Error('say which service to use: --sandbox, or --base-url with the key in ADBATCH_API_KEY');
  if (!apiKey) throw new Error('ADBATCH_API_KEY is not set: it holds the API key for --base-url');
  return { baseUrl: options.baseUrl, apiKey, sandbox: null };
}

/**
 * Local photos are served on the same port with the same secret as last time (when the port is free), so
 * their URLs stay valid across a restart: a job created just before a crash can still fetch its photos.
 */
async function startPhotoHost(dataDir: string) {
  const file = join(dataDir, 'photo-host.json');
  let saved: { secret?: string; port?: number } = {};
  try {
    saved = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    // First run, or an unreadable file: a new secret.
  }
  const secret = saved.secret ? Buffer.from(saved.secret, 'hex') : randomBytes(32);
  const host = await startLoopbackHost({ secret, port: saved.port ?? 0 });
  const port = Number(new URL(host.origin).port);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify({ secret: secret.toString('hex'), port }), { mode: 0o600 });
  return host;
}

export interface DriveOptions {
  store: QueueStore;
  dataDir: string;
  batchIds: string[];
  connections: Map<string, Connection>;
  rateLimit: RateLimit;
  timeScale: number;
  /** Storage for local photos; without it only a service on this machine can read them. */
  hosting: S3HostingConfig | null;
  quiet?: boolean;
}

export async function drive(options: DriveOptions): Promise<number> {
  const { store, batchIds } = options;
  const host: PhotoHost = options.hosting
    ? createS3Host(options.hosting)
    : await startPhotoHost(options.dataDir);
  const clientFor = (batch: Batch) => {
    const connection = options.connections.get(batch.id);
    return connection ? new ServiceClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey }) : null;
  };
  // Asked only for a batch with photos on this machine; a refusal pauses the batch with its reason.
  const hostFor = (batch: Batch) => {
    const connection = options.connections.get(batch.id);
    if (!options.hosting && connection && !connection.sandbox && !isLoopbackUrl(connection.baseUrl)) {
      throw new Error(
        'the service cannot read photos on this machine: give a bucket to upload them to (--s3-bucket, see docs/hosting-s3.md)',
      );
    }
    return host;
  };
  // An upload's progress line stays open (\r) until it ends; anything printed meanwhile starts a new line.
  let uploadLineOpen = false;
  const printLine = (text: string) => {
    process.stderr.write(`${uploadLineOpen ? '\n' : ''}${text}\n`);
    uploadLineOpen = false;
  };
  const progress = new ProgressPrinter(store, batchIds);
  const engine = new Engine({
    store,
    batchIds,
    clientFor,
    hostFor,
    rateLimit: options.rateLimit,
    timeScale: options.timeScale,
    // Uploads take a while; the loopback host is ready at once and has nothing to report.
    onHostingProgress:
      options.quiet || !options.hosting
        ? undefined
        : (_batchId, { done, total, bytesSent }) => {
            process.stderr.write(
              `\rUploading photos: ${done}/${total} (${(bytesSent / 1024 / 1024).toFixed(1)} MB sent)${done === total ? '\n' : ''}`,
            );
            uploadLineOpen = done < total;
          },
    onNotice: (batchId, message) => printLine(`${store.batch(batchId)?.name ?? batchId}: ${message}`),
  });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    process.stderr.write('\nStopping: letting requests in flight finish. `adbatch resume` continues.\n');
    engine.stop();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const ticker = options.quiet ? null : setInterval(() => progress.update(), 250);
  try {
    await engine.run();
  } finally {
    if (ticker) clearInterval(ticker);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await host.close();
  }
  if (!options.quiet) progress.update(true);
  for (const batchId of batchIds) {
    const file = await writeManifest(store, batchId);
    if (!options.quiet) process.stdout.write(`Manifest: ${file}\n`);
  }
  return interrupted ? EXIT.interrupted : outcome(store, batchIds);
}

/** The exit status for these batches, from the states their jobs ended in. */
export function outcome(store: QueueStore, batchIds: string[]): number {
  let partial = false;
  let anyDone = false;
  for (const batchId of batchIds) {
    const batch = store.batch(batchId)!;
    if (batch.statusReason === 'unauthorized') return EXIT.failed;
    // The storage refused or could not be reached; the message was printed as the batch paused.
    if (batch.statusReason === 'hosting' && batch.status === 'paused') return EXIT.failed;
    if (batch.statusReason === 'insufficient_credits' && batch.status === 'paused')
      return EXIT.stoppedOnCredits;
    const { byState, jobs } = store.totals(batchId);
    anyDone ||= (byState.done ?? 0) > 0;
    if ((byState.done ?? 0) + (byState.cancelled ?? 0) !== jobs) partial = true;
  }
  if (!partial) return EXIT.ok;
  return anyDone ? EXIT.partial : EXIT.failed;
}
