import { join } from 'node:path';
import type { BatchDetail, BatchProgress, BatchSummary, JobView } from '../../shared/models.ts';
import { ATTENTION_JOB_STATES } from '../queue/states.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch } from '../queue/types.ts';
import type { FileGateway } from './files.ts';

// Batches as the renderer sees them, built from the store.

export function batchProgress(store: QueueStore, batch: Batch): BatchProgress {
  const totals = store.totals(batch.id);
  const count = (state: string) => totals.byState[state as keyof typeof totals.byState] ?? 0;
  return {
    id: batch.id,
    name: batch.name,
    status: batch.status,
    statusReason: batch.statusReason,
    jobs: totals.jobs,
    done: count('done'),
    failed: count('failed'),
    attention: ATTENTION_JOB_STATES.reduce((sum, state) => sum + count(state), 0),
    creditsSpent: totals.charged - totals.refunded,
    creditsRefunded: totals.refunded,
  };
}

export function batchSummary(store: QueueStore, batch: Batch, accountName: string): BatchSummary {
  const progress = batchProgress(store, batch);
  return {
    ...progress,
    accountName,
    sandbox: batch.sandbox,
    createdAt: batch.createdAt,
    products: store.productCount(batch.id),
    quotedCredits: batch.quotedCredits,
  };
}

/** Average time a finished job took in this batch, times what is left, spread over the jobs running at once. */
function estimate(store: QueueStore, batch: Batch, now: number): number | null {
  const jobs = store.jobs(batch.id);
  const finished = jobs.filter((job) => job.state === 'done' && job.acceptedAt && job.finishedAt);
  const left = jobs.filter((job) => ['waiting', 'submitting', 'running', 'downloading'].includes(job.state));
  if (left.length === 0) return 0;
  if (finished.length === 0 || batch.status !== 'running') return null;
  const elapsed = now - batch.createdAt;
  return Math.round((elapsed / finished.length) * left.length);
}

export function batchDetail(
  store: QueueStore,
  batch: Batch,
  accountName: string,
  files: FileGateway,
  now: number,
): BatchDetail {
  const jobsByProduct = new Map<string, JobView[]>();
  for (const job of store.jobs(batch.id)) {
    const results = store
      .assets(job.id)
      .filter((asset) => asset.state === 'done' && asset.kind !== 'image')
      .map((asset) => ({ kind: asset.kind, url: files.url(join(batch.libraryDir, asset.path)) }));
    const view: JobView = {
      id: job.id,
      kind: job.kind,
      state: job.state,
      remoteStatus: job.remoteStatus,
      price: job.price,
      creditsCharged: job.creditsCharged,
      creditsRefunded: job.creditsRefunded,
      failureCode: job.failureCode,
      failureMessage: job.failureMessage,
      results,
    };
    jobsByProduct.set(job.productId, [...(jobsByProduct.get(job.productId) ?? []), view]);
  }
  return {
    ...batchSummary(store, batch, accountName),
    shoot: batch.shoot,
    video: batch.video,
    etaMs: estimate(store, batch, now),
    items: store.products(batch.id).map((product) => {
      const hero = product.photos[0];
      return {
        id: product.id,
        name: product.name,
        heroUrl: hero?.path ? files.url(hero.path) : (hero?.url ?? null),
        jobs: jobsByProduct.get(product.id) ?? [],
      };
    }),
  };
}
