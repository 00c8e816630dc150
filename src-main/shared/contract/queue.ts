import { z } from 'zod';
import type {
  BatchDetail,
  BatchListItem,
  BatchSummary,
  JobView,
  LastBatchSettings,
  QuoteView,
} from '../models.ts';
import {
  MODES,
  QUALITIES,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../vocabulary.ts';
import { accountId } from './accounts.ts';
import { absolutePath, channel, creditAmount, id, none, url } from './channel.ts';
import { scanId } from './ingest.ts';

// Batches and their jobs: quotes, making a batch, the user's decisions on a batch and a job (core/queue/).

export const batchId = z.string().min(1).max(200);

/** What a shoot is made of: the catalog's sets, a model for a shoot with one. */
export const shootSettings = z
  .object({
    style: z.enum(SHOOT_STYLES),
    shots: z.literal(SHOT_COUNTS),
    quality: z.enum(QUALITIES),
    aspectRatio: z.string().regex(/^\d{1,2}:\d{1,2}$/),
    mode: z.enum(MODES),
    modelUrl: url.nullable(),
    backgroundColor: z
      .string()
      .regex(/^#(?:[0-9a-f]{3}){1,2}$/i)
      .nullable(),
  })
  .strict()
  .refine((value) => value.mode === 'product_only' || value.modelUrl !== null, {
    message: 'a shoot with a model needs a model',
    path: ['modelUrl'],
  });

/** What a video ad is made of. */
export const videoSettings = z
  .object({
    duration: z.literal(VIDEO_DURATIONS),
    resolution: z.enum(VIDEO_RESOLUTIONS),
    mode: z.enum(MODES),
    aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).nullable(),
  })
  .strict();

/** When a batch's videos are made: with the shoots, or from the picks after review. */
const videoWhen = z.enum(['at_once', 'after_review']);

export const quoteRequest = z
  .object({
    scanId,
    accountId,
    shoot: shootSettings,
    video: videoSettings.nullable(),
    videoWhen: videoWhen.optional(),
    includeDone: z.boolean(),
    brandId: z.string().min(1).max(100).nullable().optional(),
    creditCap: creditAmount.nullable().optional(),
  })
  .strict();

export const newBatchRequest = quoteRequest.extend({ name: z.string().trim().min(1).max(200) }).strict();

/** The last batch's settings as kept in the preferences file: read back only if they still hold. */
export const lastBatchSettings = z
  .object({
    accountId,
    shoot: shootSettings,
    video: videoSettings.nullable(),
    videoWhen: videoWhen.nullable(),
  })
  .strict();

export const batchesChannels = {
  'batches:quote': channel<QuoteView>()(quoteRequest),
  'batches:create': channel<BatchSummary>()(newBatchRequest),
  'batches:list': channel<BatchListItem[]>()(none),
  /** What the last batch started with, if it still holds (New batch starts from it); null: the defaults. */
  'batches:lastSettings': channel<LastBatchSettings | null>()(none),
  'batches:get': channel<BatchDetail>()(id),
  'batches:pause': channel<BatchSummary>()(id),
  'batches:resume': channel<BatchSummary>()(id),
  'batches:cancel': channel<BatchSummary>()(id),
  /** Downloads again every result the batch owes (paid for, not on disk): no POST, no credits. */
  'batches:redownload': channel<BatchSummary>()(id),
  /**
   * "Check all again": every job in doubt asked about once more, free (stale ones followed, owed ones
   * downloaded, unknown outcomes looked for in the service's usage report); what was found is a notice.
   */
  'batches:recheck': channel<BatchSummary>()(id),
  /**
   * The batch's library found again where the user points (the library, or the batch's folder in it),
   * refused unless every result it saved is there; a batch paused for its library goes on.
   */
  'batches:relocate': channel<BatchSummary>()(z.object({ id: batchId, libraryDir: absolutePath }).strict()),
};

export const jobsChannels = {
  /** A job and the batch it belongs to, for a decision on it (the job's view carries what it allows). */
  'jobs:get': channel<{ batchId: string; job: JobView }>()(id),
  'jobs:retry': channel<BatchSummary>()(id),
  'jobs:abandon': channel<BatchSummary>()(id),
  /** Free: a stale job followed again, an unknown outcome looked for in the service's usage report. */
  'jobs:recheck': channel<BatchSummary>()(id),
  /** Downloads an owed job's results again: no POST, no credits. */
  'jobs:redownload': channel<BatchSummary>()(id),
};
