import { z } from 'zod';
import { POOL_BALANCE } from './guesses.ts';
import type {
  ClientBrand,
  CreditBalance,
  HealthStatus,
  JobFailure,
  JobPhase,
  Model,
  RemoteImage,
  RemoteShoot,
  RemoteVideo,
  UsageReport,
  UsageRow,
} from './types.ts';

// Tolerant readers of the service's answers. The description leaves much "not shown" and the service may
// grow, so: extra fields pass (loose objects), any optional value may be null or absent, and a decorative
// field of the wrong type reads as null rather than failing the whole answer. Only what the engine cannot
// work without is required (a job's id and status, a balance's credits); if that is missing the answer
// is malformed and the client says so.

/** An optional text: null when absent, null, or not a string. */
const text = z
  .string()
  .nullish()
  .catch(null)
  .transform((value) => value ?? null);

/** A number the service may send as a numeric string (proxies and other languages do that). */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(?:\.\d+)?$/)
    .transform(Number),
]);

/** An optional count: null when absent or unreadable. */
const count = numeric
  .nullish()
  .catch(null)
  .transform((value) => value ?? null);

const flag = z
  .boolean()
  .nullish()
  .catch(null)
  .transform((value) => value ?? null);

/** Identifiers are strings; a numeric id is accepted and kept as text so it round-trips into a path. */
const id = z.union([z.string().trim().min(1), z.number().transform(String)]);

/** The phase a status means. Compared case-insensitively, since only the spelling of the value is ours. */
export function phaseOf(status: string): JobPhase {
  const normalised = status.trim().toLowerCase();
  if (normalised === 'completed') return 'completed';
  if (normalised === 'failed') return 'failed';
  return 'running';
}

/** `error: {code, message}` on a failed job; a bare string is read as the message. */
const failureField = z
  .union([
    z.looseObject({ code: text, message: text }).transform(({ code, message }) => ({ code, message })),
    z.string().transform((message): JobFailure => ({ code: null, message })),
  ])
  .nullish()
  .catch(null)
  .transform((value) => value ?? null);

function failureFor(phase: JobPhase, failure: JobFailure | null): JobFailure | null {
  // A failed job always carries a failure object, so callers never have to null-check twice.
  if (failure) return failure;
  return phase === 'failed' ? { code: null, message: null } : null;
}

const imageEntry = z.union([
  z.looseObject({ url: text, thumbnail_url: text, status: text }).transform(
    (image): RemoteImage => ({
      url: image.url,
      thumbnailUrl: image.thumbnail_url,
      status: image.status,
    }),
  ),
  // A bare URL string is the simplest thing a service could put in a results array.
  z.string().transform((url): RemoteImage => ({ url, thumbnailUrl: null, status: null })),
]);

/** Keeps the entries that read, drops the rest: one odd entry must not hide the others. */
function readable<T extends z.ZodType>(item: T, values: readonly unknown[]): Array<z.output<T>> {
  return values.flatMap((value) => {
    const parsed = item.safeParse(value);
    return parsed.success ? [parsed.data as z.output<T>] : [];
  });
}

/** An optional array: empty when absent or not an array, with unreadable entries dropped. */
function tolerantArray<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .nullish()
    .catch(null)
    .transform((values) => readable(item, values ?? []));
}

export const shootSchema = z
  .looseObject({
    id,
    status: z.string(),
    shots: count,
    shots_adjusted: flag,
    credits_used: count,
    credits_remaining: count,
    images: tolerantArray(imageEntry),
    created_at: text,
    error: failureField,
  })
  .transform((raw): RemoteShoot => {
    const phase = phaseOf(raw.status);
    return {
      id: raw.id,
      status: raw.status,
      phase,
      shots: raw.shots,
      shotsAdjusted: raw.shots_adjusted === true,
      creditsUsed: raw.credits_used,
      creditsRemaining: raw.credits_remaining,
      images: raw.images,
      createdAt: raw.created_at,
      failure: failureFor(phase, raw.error),
    };
  });

export const videoSchema = z
  .looseObject({
    id,
    status: z.string(),
    video_url: text,
    credits_used: count,
    credits_remaining: count,
    created_at: text,
    error: failureField,
  })
  .transform((raw): RemoteVideo => {
    const phase = phaseOf(raw.status);
    return {
      id: raw.id,
      status: raw.status,
      phase,
      videoUrl: raw.video_url,
      creditsUsed: raw.credits_used,
      creditsRemaining: raw.credits_remaining,
      createdAt: raw.created_at,
      failure: failureFor(phase, raw.error),
    };
  });

export const creditBalanceSchema = z.looseObject({ credits: numeric, balance: text, tenant: text }).transform(
  (raw): CreditBalance => ({
    credits: raw.credits,
    pool: raw.balance?.trim().toLowerCase() === POOL_BALANCE,
    tenant: raw.tenant,
  }),
);

/** `period.to` is the literal `now` while the period is still open: no instant, so null. */
const periodEnd = text.transform((value) =>
  value === null || value.trim().toLowerCase() === 'now' ? null : value,
);

const usageRow = z
  .looseObject({
    brand_id: text,
    brand_name: text,
    images: count,
    image_credits: count,
    videos: count,
    video_credits: count,
  })
  .transform(
    (raw): UsageRow => ({
      brandId: raw.brand_id,
      brandName: raw.brand_name,
      images: raw.images,
      imageCredits: raw.image_credits,
      videos: raw.videos,
      videoCredits: raw.video_credits,
    }),
  );

const emptyPeriod = { from: null, to: null };
const emptyTotals = { images: null, videos: null, credits: null };

export const usageReportSchema = z
  .looseObject({
    period: z
      .looseObject({ from: periodEnd, to: periodEnd })
      .transform(({ from, to }) => ({ from, to }))
      .nullish()
      .catch(null),
    data: tolerantArray(usageRow),
    totals: z
      .looseObject({ images: count, videos: count, credits: count })
      .transform(({ images, videos, credits }) => ({ images, videos, credits }))
      .nullish()
      .catch(null),
  })
  .transform(
    (raw): UsageReport => ({
      period: raw.period ?? emptyPeriod,
      rows: raw.data,
      totals: raw.totals ?? emptyTotals,
    }),
  );

export const brandSchema = z.looseObject({ id, name: text, active: flag, created_at: text }).transform(
  (raw): ClientBrand => ({
    id: raw.id,
    name: raw.name,
    // A listed brand that does not say otherwise is usable.
    active: raw.active ?? true,
    createdAt: raw.created_at,
  }),
);

const tags = z
  .array(z.unknown())
  .nullish()
  .catch(null)
  .transform((values) => (values ?? []).filter((value): value is string => typeof value === 'string'));

export const modelSchema = z
  .looseObject({ id, name: text, image_url: text, is_preset: flag, tags })
  .transform(
    (raw): Model => ({
      id: raw.id,
      name: raw.name,
      imageUrl: raw.image_url,
      isPreset: raw.is_preset,
      tags: raw.tags,
    }),
  );

/**
 * A list answer: `{object: "list", data: [...]}` as documented, or a bare array. Pagination is not shown, so
 * only the first page is read; entries that do not read (e.g. without an id) are dropped.
 */
export function listSchema<T extends z.ZodType>(item: T) {
  return z
    .union([z.looseObject({ data: z.array(z.unknown()) }).transform((raw) => raw.data), z.array(z.unknown())])
    .transform((values) => readable(item, values));
}

export const brandListSchema = listSchema(brandSchema);
export const modelListSchema = listSchema(modelSchema);

/** The health body is not shown: anything parses; known fields are picked up when they are there. */
export const healthSchema = z.unknown().transform((body): HealthStatus => {
  const fields = z.looseObject({ status: text, version: text, sandbox: flag }).safeParse(body);
  return {
    ok: true,
    status: fields.success ? fields.data.status : null,
    version: fields.success ? fields.data.version : null,
    sandbox: fields.success && fields.data.sandbox === true,
  };
});
