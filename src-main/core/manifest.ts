import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { libraryFault } from './downloads/library-check.ts';
import { batchFolder } from './library.ts';
import type { QueueStore } from './queue/store.ts';
import { makeFolders } from './util/make-folders.ts';

// manifest.json, beside a batch's results: every product, job, charge and file, so the batch can be read
// (and audited) without Adbatch. Written atomically: a write that fails (a full disk) leaves no `.part`.

export function buildManifest(store: QueueStore, batchId: string) {
  const batch = store.batches.get(batchId);
  if (!batch) throw new Error(`no batch ${batchId}`);
  const jobs = store.jobs.ofBatch(batchId);
  const totals = store.totals(batchId);
  return {
    manifest_version: 1,
    batch: {
      id: batch.id,
      name: batch.name,
      created_at: new Date(batch.createdAt).toISOString(),
      service: batch.baseUrl,
      key: batch.keyHint,
      sandbox: batch.sandbox,
      status: batch.status,
      status_reason: batch.statusReason,
      shoot: batch.shoot,
      video: batch.video,
    },
    credits: {
      quoted: batch.quotedCredits,
      charged: totals.charged,
      refunded: totals.refunded,
      spent: totals.charged - totals.refunded,
      at_stake: totals.atStake,
    },
    products: store.batches.products(batchId).map((product) => ({
      name: product.name,
      source: product.sourceDir,
      photos: product.photos.map((photo) => photo.path ?? photo.url),
      jobs: jobs
        .filter((job) => job.productId === product.id)
        .map((job) => ({
          id: job.id,
          kind: job.kind,
          // A reshoot's settings differ from the batch's.
          settings: job.settings,
          state: job.state,
          remote_id: job.remoteId,
          remote_status: job.remoteStatus,
          price: job.price,
          charged: job.creditsCharged,
          refunded: job.creditsRefunded,
          posts: job.posts,
          polls: job.polls,
          failure: job.failureCode ? { code: job.failureCode, message: job.failureMessage } : null,
          history: store.jobs
            .events(job.id)
            .filter((event) => event.type === 'state' || event.type === 'remote_status')
            .map((event) => ({ at: new Date(event.at).toISOString(), [event.type]: event.value })),
          files: store.assets.ofJob(job.id).map((asset) => ({
            kind: asset.kind,
            path: asset.path.split('/').slice(1).join('/'),
            state: asset.state,
            bytes: asset.bytes,
            sha256: asset.sha256,
            error: asset.error,
          })),
        })),
    })),
    ledger: store.ledger.entries({ batchId }).map((entry) => ({
      jobId: entry.jobId,
      attempt: entry.attempt,
      at: new Date(entry.at).toISOString(),
      type: entry.type,
      credits: entry.credits,
    })),
  };
}

/**
 * Writes the manifest beside the batch's results; null, writing nothing, where its results are not (a
 * library renamed, deleted or unplugged): a manifest alone would start a second library at the old place.
 */
export async function writeManifest(store: QueueStore, batchId: string): Promise<string | null> {
  const batch = store.batches.get(batchId)!;
  const folder = batchFolder(batch);
  if (await libraryFault(batch.libraryDir, folder, store.assets.anySaved(batch.id))) return null;
  const file = join(batch.libraryDir, folder, 'manifest.json');
  await makeFolders(join(batch.libraryDir, folder));
  try {
    await writeFile(`${file}.part`, `${JSON.stringify(buildManifest(store, batchId), null, 2)}\n`);
    await rename(`${file}.part`, file);
  } catch (error) {
    await rm(`${file}.part`, { force: true });
    throw error;
  }
  return file;
}
