import { z } from 'zod';
import type { BatchSummary, PickedVideoQuote, ReshootQuote, ReviewDecided, ReviewView } from '../models.ts';
import { REJECT_REASONS, RESULT_KINDS, REVIEW_FLAGS, REVIEW_LABELS, SHOOT_STYLES } from '../vocabulary.ts';
import { absolutePath, channel, none, url } from './channel.ts';
import { batchId, shootSettings, videoSettings } from './queue.ts';

// Decisions on results, and what is made from them: videos from the picks, shoots again (core/review/).

/** A result of a batch: a shot or a video, by one id across the app, the CLI and MCP. */
export const resultId = z.number().int().positive();
export const stars = z.number().int().min(0).max(5);
/** A product across batches, as Review's scope names it: an id, a key, a folder, or a SKU. */
export const product = z.string().trim().min(1).max(4096);

/** Review's arguments in a scope (ReviewScope): a batch's, or one product's across batches, never both. */
function inScope<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.union([z.object({ batchId, ...shape }).strict(), z.object({ product, ...shape }).strict()]);
}

export const pickedVideosRequest = z
  .object({
    batchId,
    video: videoSettings
      .extend({
        logoUrl: url.optional(),
        logoFile: absolutePath.optional(),
        music: z.boolean().optional(),
        note: z.string().trim().max(2000).optional(),
      })
      .refine((choice) => !(choice.logoUrl && choice.logoFile), {
        message: 'a logo is a URL or a file, not both',
        path: ['logoFile'],
      }),
    order: z.record(z.string().min(1).max(200), z.array(resultId).max(100)).optional(),
  })
  .strict();

const reshootRequest = z
  .object({
    batchId,
    productIds: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
    shoot: shootSettings,
  })
  .strict();

export const reviewChannels = {
  /**
   * A batch's results to review (or one product's across batches), the filter's, with counts over the
   * whole batch (or product); a page of them when asked.
   */
  'review:get': channel<ReviewView>()(
    inScope({
      filter: z
        .object({
          flag: z.enum([...REVIEW_FLAGS, 'none']),
          minStars: stars,
          reviewed: z.boolean(),
          kind: z.enum(RESULT_KINDS),
          style: z.enum(SHOOT_STYLES),
          product: z.string().max(500),
          label: z.enum([...REVIEW_LABELS, 'none']),
        })
        .partial()
        .strict()
        .optional(),
      page: z
        .object({ offset: z.number().int().min(0), limit: z.number().int().min(1) })
        .strict()
        .optional(),
    }),
  ),
  /** A decision on one result or a selection, committed at once. */
  'review:decide': channel<ReviewDecided>()(
    inScope({
      resultIds: z.array(resultId).min(1).max(100_000),
      change: z
        .object({
          flag: z.enum(REVIEW_FLAGS).nullable(),
          stars,
          rejectReason: z.enum(REJECT_REASONS).nullable(),
          /** A colour label (Lightroom's 6 to 9), null removes it. */
          label: z.enum(REVIEW_LABELS).nullable(),
        })
        .partial()
        .strict()
        .refine((change) => Object.keys(change).length > 0, 'says nothing to change'),
    }),
  ),
  /** Picks this result and rejects the others of its product (shots, or videos) in the scope. */
  'review:keep': channel<ReviewDecided>()(inScope({ resultId })),
  /**
   * Sets where a result's subject is (fractions of its width and height from the top left), so that an
   * export's crops centre there; null clears it (crops then find the subject themselves).
   */
  'review:setFocus': channel<{ resultId: number; focus: { x: number; y: number } | null }>()(
    inScope({
      resultId,
      focus: z
        .object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })
        .strict()
        .nullable(),
    }),
  ),
  /** Undoes the scope's last decision of this session; nothing changed when there is none. */
  'review:undo': channel<ReviewDecided>()(inScope({})),
  'review:redo': channel<ReviewDecided>()(inScope({})),
};

export const videosChannels = {
  /** What videos from the picks would cost, per product and in all, against the balance; nothing is spent. */
  'videos:quote': channel<PickedVideoQuote>()(pickedVideosRequest),
  /** Queues those videos in the batch, refused if the balance does not cover them. */
  'videos:create': channel<BatchSummary>()(pickedVideosRequest),
  /** The OS dialog to choose one image file (a logo); null when cancelled. */
  'dialog:openImage': channel<string | null>()(none),
};

export const reshootChannels = {
  /**
   * What shooting products again would cost (by default those whose shots are all rejected), per product and
   * in all, against the balance of the batch's key; nothing is spent.
   */
  'reshoot:quote': channel<ReshootQuote>()(reshootRequest),
  /** Adds those shoots to the batch, which runs again; refused if the balance does not cover them. */
  'reshoot:create': channel<BatchSummary>()(reshootRequest),
};
