import type { BatchStatus, JobState, PauseReason } from '../../shared/vocabulary.ts';
import {
  readStored,
  storedBatchVideo,
  storedJobVideo,
  storedJson,
  storedPhotos,
  storedShoot,
} from '../db/stored.ts';
import type { AccountId, AssetId, BatchId, JobId, ProductId } from './ids.ts';
import type { Asset, Batch, Job, Product } from './types.ts';

// The queue's tables as SQLite returns them, and their mapping to the types the rest of core uses. Each
// statement names its row type (`db.prepare<Params, BatchRow>`), so a read is checked here once instead of
// cast at every use. SQLite stores what the store wrote: the branded ids and the enums are the store's own.
// The JSON columns are parsed (db/stored.ts): a damaged one throws, naming the row and what is wrong.

export interface BatchRow {
  id: BatchId;
  name: string;
  created_at: number;
  account_id: AccountId;
  base_url: string;
  key_id: string;
  key_hint: string;
  sandbox: 0 | 1;
  library_dir: string;
  shoot_settings: string;
  video_settings: string | null;
  videos_after_review: string | null;
  quoted_credits: number;
  status: BatchStatus;
  status_reason: PauseReason | null;
  status_message: string | null;
  updated_at: number;
  brand_id: string | null;
  credit_cap: number | null;
  agent_client: string | null;
}

export interface ProductRow {
  id: ProductId;
  batch_id: BatchId;
  position: number;
  name: string;
  source_dir: string;
  rel_path: string;
  fingerprint: string | null;
  photos: string;
}

export interface JobRow {
  id: JobId;
  batch_id: BatchId;
  product_id: ProductId;
  kind: Job['kind'];
  after_job_id: JobId | null;
  settings: string;
  request: string | null;
  price: number;
  state: JobState;
  remote_id: string | null;
  remote_status: string | null;
  credits_charged: number;
  credits_refunded: number;
  posts: number;
  polls: number;
  created_at: number;
  submitted_at: number | null;
  accepted_at: number | null;
  finished_at: number | null;
  next_poll_at: number | null;
  last_polled_running_at: number | null;
  deadline_at: number | null;
  failure_code: string | null;
  failure_message: string | null;
}

export interface AssetRow {
  id: AssetId;
  job_id: JobId;
  kind: Asset['kind'];
  idx: number;
  url: string;
  path: string;
  state: Asset['state'];
  bytes: number | null;
  sha256: string | null;
  attempts: number;
  error: string | null;
}

export function toBatch(row: BatchRow): Batch {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    accountId: row.account_id,
    baseUrl: row.base_url,
    keyId: row.key_id,
    keyHint: row.key_hint,
    sandbox: row.sandbox === 1,
    libraryDir: row.library_dir,
    shoot: readStored(storedShoot, row.shoot_settings, `Batch ${row.id}'s shoot settings`),
    video: row.video_settings
      ? readStored(storedBatchVideo, row.video_settings, `Batch ${row.id}'s video settings`)
      : null,
    videosAfterReview: row.videos_after_review
      ? readStored(storedBatchVideo, row.videos_after_review, `Batch ${row.id}'s videos after review`)
      : null,
    quotedCredits: row.quoted_credits,
    status: row.status,
    statusReason: row.status_reason,
    statusMessage: row.status_message,
    updatedAt: row.updated_at,
    brandId: row.brand_id,
    creditCap: row.credit_cap,
    agentClient: row.agent_client,
  };
}

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    batchId: row.batch_id,
    position: row.position,
    name: row.name,
    sourceDir: row.source_dir,
    path: row.rel_path,
    fingerprint: row.fingerprint,
    photos: readStored(storedPhotos, row.photos, `Product ${row.id}'s photos`),
  };
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    batchId: row.batch_id,
    productId: row.product_id,
    kind: row.kind,
    afterJobId: row.after_job_id,
    settings:
      row.kind === 'shoot'
        ? readStored(storedShoot, row.settings, `Job ${row.id}'s settings`)
        : readStored(storedJobVideo, row.settings, `Job ${row.id}'s settings`),
    request: row.request ? readStored(storedJson, row.request, `Job ${row.id}'s request`) : null,
    price: row.price,
    state: row.state,
    remoteId: row.remote_id,
    remoteStatus: row.remote_status,
    creditsCharged: row.credits_charged,
    creditsRefunded: row.credits_refunded,
    posts: row.posts,
    polls: row.polls,
    createdAt: row.created_at,
    submittedAt: row.submitted_at,
    acceptedAt: row.accepted_at,
    finishedAt: row.finished_at,
    nextPollAt: row.next_poll_at,
    lastPolledRunningAt: row.last_polled_running_at,
    deadlineAt: row.deadline_at,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
  };
}

export function toAsset(row: AssetRow): Asset {
  return {
    id: row.id,
    jobId: row.job_id,
    kind: row.kind,
    idx: row.idx,
    url: row.url,
    path: row.path,
    state: row.state,
    bytes: row.bytes,
    sha256: row.sha256,
    attempts: row.attempts,
    error: row.error,
  };
}
