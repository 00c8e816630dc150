import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { recipeSchema } from '../../shared/export-recipe.ts';
import type { Channel, Handlers } from '../../shared/ipc.ts';
import {
  MODES,
  QUALITIES,
  REJECT_REASONS,
  RESULT_KINDS,
  REVIEW_FLAGS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../shared/vocabulary.ts';
import { MAX_S3_URL_TTL_SECONDS } from '../hosting/s3.ts';

// Every argument from the renderer, checked before a handler sees it: the renderer is treated as untrusted.

const id = z.object({ id: z.string().min(1).max(200) }).strict();
const batchId = z.string().min(1).max(200);
const resultId = z.number().int().positive();
const stars = z.number().int().min(0).max(5);
const none = z.undefined();
const url = z.url({ protocol: /^https?$/ }).max(2000);
/** A product across batches, as Review's scope names it: an id, a key, a folder, or a SKU. */
const product = z.string().trim().min(1).max(4096);

/** Review's arguments in a scope (ReviewScope): a batch's, or one product's across batches, never both. */
function inScope<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.union([z.object({ batchId, ...shape }).strict(), z.object({ product, ...shape }).strict()]);
}

const shoot = z
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

const video = z
  .object({
    duration: z.literal(VIDEO_DURATIONS),
    resolution: z.enum(VIDEO_RESOLUTIONS),
    mode: z.enum(MODES),
    aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).nullable(),
  })
  .strict();

const quote = z
  .object({
    scanId: z.string().min(1).max(100),
    accountId: z.string().min(1).max(100),
    shoot,
    video: video.nullable(),
    videoWhen: z.enum(['at_once', 'after_review']).optional(),
    includeDone: z.boolean(),
    brandId: z.string().min(1).max(100).nullable().optional(),
    creditCap: z.number().int().min(0).max(1_000_000_000).nullable().optional(),
  })
  .strict();

/** Whole credits: caps and budgets are integers, as every amount of money here. */
const creditAmount = z.number().int().min(0).max(1_000_000_000);
/** An agent's name as its MCP client gives it, shown to the person who approves. */
const agentClient = z.string().trim().min(1).max(100);
/** Who decided an agent's request: "Adbatch" (the app), "adbatch approve". */
const decider = z.string().trim().min(1).max(100);
/** A period in epoch ms, a day to ten years long. */
const period = z
  .object({ from: z.number().int().min(0), to: z.number().int().min(0) })
  .strict()
  .refine((value) => value.to > value.from && value.to - value.from <= 10 * 366 * 86_400_000, {
    message: 'is not a period: its end must come after its start, at most ten years later',
  });
const usageOwner = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('brand'),
      brandId: z.string().min(1).max(100),
      name: z.string().max(500),
      agencyName: z.string().max(500).nullable(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('unassigned'),
      agencyName: z.string().max(500).nullable(),
      baseUrl: z.string().max(2000),
    })
    .strict(),
  z
    .object({ kind: z.literal('account'), accountId: z.string().min(1).max(100), name: z.string().max(500) })
    .strict(),
]);

/** The last batch's settings as kept in the preferences file: read back only if they still hold. */
export const lastBatchSettings = z
  .object({
    accountId: z.string().min(1).max(100),
    shoot,
    video: video.nullable(),
    videoWhen: z.enum(['at_once', 'after_review']).nullable(),
  })
  .strict();

const pickedVideos = z
  .object({
    batchId,
    video: video
      .extend({
        logoUrl: url.optional(),
        logoFile: z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path').optional(),
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

const reshoot = z
  .object({
    batchId,
    productIds: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
    shoot,
  })
  .strict();

const absolutePath = z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path');

const exportRequest = z
  .object({
    scope: z
      .object({
        batchIds: z.array(batchId).min(1).max(10_000).optional(),
        product,
        resultIds: z.array(resultId).min(1).max(100_000).optional(),
      })
      .partial({ product: true })
      .strict()
      .refine((scope) => (scope.batchIds === undefined) !== (scope.product === undefined), {
        message: 'names batches or a product, not both',
      })
      .refine((scope) => !scope.resultIds || scope.product !== undefined || scope.batchIds?.length === 1, {
        message: 'a selection of results is of one batch or one product',
        path: ['resultIds'],
      }),
    recipes: z.array(z.string().trim().min(1).max(100)).min(1).max(50),
    selection: z
      .object({
        rule: z.enum(['picked', 'picked-or-stars', 'not-rejected']),
        minStars: stars,
        videos: z.boolean(),
        sources: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
    fileTemplate: z.string().min(1).max(400).optional(),
    folderTemplate: z.string().max(400).optional(),
    destination: absolutePath,
    zip: z.enum(['per-product', 'per-recipe']).nullable().optional(),
    manifest: z.object({ csv: z.boolean(), json: z.boolean() }).strict().optional(),
  })
  .strict();

export const HANDLER_SCHEMAS = {
  'app:info': none,
  'catalog:get': none,
  'accounts:list': none,
  'accounts:add': z
    .object({
      name: z.string().trim().min(1).max(100),
      baseUrl: url,
      apiKey: z.string().trim().min(1).max(500),
    })
    .strict(),
  'accounts:remove': id,
  'accounts:refresh': id,
  'models:list': z.object({ accountId: z.string().min(1).max(100) }).strict(),
  'dialog:open': none,
  'library:reveal': z.object({ batchId: z.string().min(1).max(200).optional() }).strict(),
  'ingest:scan': z
    .object({
      inputs: z.array(z.string().min(1).max(4096)).min(1).max(10_000),
      pattern: z.string().max(500).optional(),
      subfolders: z.enum(['own', 'parent']).optional(),
    })
    .strict(),
  'ingest:hero': z
    .object({
      scanId: z.string().min(1).max(100),
      product: z.string().min(1).max(1000),
      photo: z.number().int().min(0).max(100),
    })
    .strict(),
  'ingest:leaveOut': z
    .object({
      scanId: z.string().min(1).max(100),
      product: z.string().min(1).max(1000),
      out: z.boolean(),
    })
    .strict(),
  'batches:quote': quote,
  'batches:create': quote.extend({ name: z.string().trim().min(1).max(200) }).strict(),
  'batches:list': none,
  'batches:lastSettings': none,
  'batches:get': id,
  'batches:pause': id,
  'batches:resume': id,
  'batches:cancel': id,
  'batches:redownload': id,
  'batches:relocate': z
    .object({
      id: z.string().min(1).max(200),
      libraryDir: z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path'),
    })
    .strict(),
  'jobs:get': id,
  'jobs:retry': id,
  'jobs:abandon': id,
  'jobs:recheck': id,
  'jobs:redownload': id,
  'review:get': inScope({
    filter: z
      .object({
        flag: z.enum([...REVIEW_FLAGS, 'none']),
        minStars: stars,
        reviewed: z.boolean(),
        kind: z.enum(RESULT_KINDS),
        style: z.enum(SHOOT_STYLES),
        product: z.string().max(500),
      })
      .partial()
      .strict()
      .optional(),
    page: z
      .object({ offset: z.number().int().min(0), limit: z.number().int().min(1) })
      .strict()
      .optional(),
  }),
  'review:decide': inScope({
    resultIds: z.array(resultId).min(1).max(100_000),
    change: z
      .object({
        flag: z.enum(REVIEW_FLAGS).nullable(),
        stars,
        rejectReason: z.enum(REJECT_REASONS).nullable(),
      })
      .partial()
      .strict()
      .refine((change) => Object.keys(change).length > 0, 'says nothing to change'),
  }),
  'review:keep': inScope({ resultId }),
  'review:undo': inScope({}),
  'review:redo': inScope({}),
  'videos:quote': pickedVideos,
  'videos:create': pickedVideos,
  'dialog:openImage': none,
  'reshoot:quote': reshoot,
  'reshoot:create': reshoot,
  'storage:get': none,
  'storage:set': z
    .object({
      bucket: z.string().trim().min(1).max(255),
      endpoint: url.optional(),
      region: z.string().trim().min(1).max(64).optional(),
      prefix: z.string().trim().max(512).optional(),
      publicBaseUrl: url.optional(),
      urlTtlHours: z
        .number()
        .int()
        .min(1)
        .max(MAX_S3_URL_TTL_SECONDS / 3600)
        .optional(),
      accessKeyId: z.string().trim().min(1).max(256).optional(),
      secretAccessKey: z.string().min(1).max(1024).optional(),
    })
    .strict(),
  'storage:clear': none,
  'export:recipes': none,
  'export:saveRecipe': recipeSchema,
  'export:deleteRecipe': id,
  'export:plan': exportRequest,
  'export:start': exportRequest,
  'export:resume': id,
  'export:cancel': id,
  'export:list': none,
  'export:get': id,
  'dialog:openFolder': none,
  'export:discard': id,
  'export:reveal': id,
  'export:drag': z
    .object({
      scope: z
        .object({
          batchIds: z.array(batchId).length(1),
          product,
          resultIds: z.array(resultId).min(1).max(10_000),
        })
        .partial({ batchIds: true, product: true })
        .strict()
        .refine((scope) => (scope.batchIds === undefined) !== (scope.product === undefined), {
          message: 'names a batch or a product, not both',
        }),
      recipe: z.string().trim().min(1).max(100).optional(),
    })
    .strict(),
  'accounts:pin': z
    .object({ id: z.string().min(1).max(100), brandId: z.string().min(1).max(100).nullable() })
    .strict(),
  'brands:list': none,
  'brands:refresh': z.object({ accountId: z.string().min(1).max(100) }).strict(),
  'brands:create': z
    .object({ accountId: z.string().min(1).max(100), name: z.string().trim().min(1).max(200) })
    .strict(),
  'brands:setCap': z.object({ id: z.string().min(1).max(100), monthlyCap: creditAmount.nullable() }).strict(),
  'usage:get': period,
  'usage:reconcile': period,
  'usage:statement': z
    .object({ from: z.number().int().min(0), to: z.number().int().min(0), owner: usageOwner })
    .strict()
    .refine((value) => value.to > value.from, {
      message: 'is not a period: its end must come after its start',
    }),
  'usage:printStatement': z.object({ fileName: z.string().trim().min(1).max(255) }).strict(),
  'agents:quote': z
    .object({
      client: agentClient,
      request: quote.extend({ name: z.string().trim().min(1).max(200) }).strict(),
    })
    .strict(),
  'agents:quoteVideos': z.object({ client: agentClient, request: pickedVideos }).strict(),
  'agents:submit': z
    .object({
      client: agentClient,
      quoteId: z.string().min(1).max(100),
      clientRequestId: z.string().trim().min(1).max(200),
    })
    .strict(),
  'agents:requests': none,
  'agents:request': z.object({ id: z.string().min(1).max(100) }).strict(),
  'agents:approve': z.object({ id: z.string().min(1).max(100), by: decider.optional() }).strict(),
  'agents:decline': z
    .object({
      id: z.string().min(1).max(100),
      by: decider.optional(),
      reason: z.string().trim().max(500).optional(),
    })
    .strict(),
  'agents:allowance': none,
  'agents:server': none,
  'agents:setServer': z
    .object({
      enabled: z.boolean(),
      newToken: z.boolean().optional(),
      exportFolder: z
        .string()
        .min(1)
        .max(4096)
        .refine((folder) => isAbsolute(folder), { message: 'must be an absolute path' })
        .optional(),
    })
    .strict(),
  'agents:setAllowance': z
    .object({ brandId: z.string().min(1).max(100).nullable(), credits: creditAmount.nullable() })
    .strict(),
  'settings:get': none,
  'settings:set': z
    .object({ libraryDir: z.string().min(1).max(4096), budgetMarginPercent: z.number().int().min(0).max(50) })
    .partial()
    .strict(),
} satisfies { [C in Channel]: z.ZodType<Handlers[C]['args']> };

export const CHANNELS = Object.keys(HANDLER_SCHEMAS) as Channel[];
