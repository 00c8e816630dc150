import { z } from 'zod';
import { lastBatchSettings, shootSettings, videoSettings } from '../../shared/contract/queue.ts';
import { recipeSchema } from '../../shared/export-recipe.ts';
import { CONTRACT } from '../../shared/ipc.ts';
import type { Settings } from '../../shared/models.ts';
import { IDENTITY_FIELDS, RESULT_KINDS } from '../../shared/vocabulary.ts';
import { withLegacyUpscale } from './legacy-recipe.ts';

// What Adbatch reads back of what it stored, as JSON in the database or in a file of its own, is parsed
// here against the shape it was written in, never cast: a row edited by hand, written by a later Adbatch or
// damaged on disk then says what is wrong with it (`UnreadableError`) instead of flowing on as a lie. Each
// caller decides what an unreadable value means to it (an agent's request that cannot be approved, an
// export listed as unreadable, settings back to their defaults); the shapes are defined once, here, from the
// schemas their values were checked with when they came in (the handlers' input schemas, the recipes').
// Values the service or a person sends are parsed where they arrive, not here. A key a shape does not name
// is dropped rather than refused (a progress keeps more than its view, a later Adbatch may add one).

/** A stored value that does not parse: `what` names it for people ("agent request ar_1's plan"). */
export class UnreadableError extends Error {
  override name = 'UnreadableError';

  constructor(
    readonly what: string,
    readonly reason: string,
  ) {
    super(`${what} cannot be read: ${reason}`);
  }
}

/** At most this many issues are named: the first ones say what is wrong, the rest repeat it. */
const NAMED_ISSUES = 3;

function issueLines(issues: readonly z.core.$ZodIssue[], under: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...under, ...issue.path];
    // A union names every alternative's issues: the one that came closest (fewest issues) says what is wrong.
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, next) => (next.length < best.length ? next : best));
      return issueLines(closest, path);
    }
    return [path.length > 0 ? `${path.map(String).join('.')}: ${issue.message}` : issue.message];
  });
}

/** What is wrong with a value, in one line: where, and what was expected there. */
function reasonOf(error: z.ZodError): string {
  const lines = issueLines(error.issues);
  const more = lines.length > NAMED_ISSUES ? ` (and ${lines.length - NAMED_ISSUES} more)` : '';
  return `${lines.slice(0, NAMED_ISSUES).join('; ')}${more}`;
}

/** A value already decoded (a row as SQLite returns it, a file's JSON) checked against its schema. */
export function readStoredValue<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UnreadableError(what, reasonOf(parsed.error));
  return parsed.data;
}

/** Stored JSON text parsed, then checked against its schema; an `UnreadableError` says why it cannot be. */
export function readStored<S extends z.ZodType>(schema: S, text: string, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UnreadableError(what, `it is not JSON (${(error as SyntaxError).message})`);
  }
  return readStoredValue(schema, value, what);
}

/** `readStored`, its failure as a value: for a caller that shows what it cannot read beside what it can. */
export function tryReadStored<S extends z.ZodType>(
  schema: S,
  text: string,
  what: string,
): z.output<S> | UnreadableError {
  try {
    return readStored(schema, text, what);
  } catch (error) {
    if (error instanceof UnreadableError) return error;
    throw error;
  }
}

// The queue (migration 001 on): a batch's and a job's settings, a product's photos; a job's request and its
// events' details are kept as sent and as noted (any JSON), for people and the manifest.

/** Any JSON (what JSON.parse gives is JSON: nothing to walk): a job's request body, an event's detail. */
export const storedJson = z.unknown();

/** A shoot's settings, as New batch's quote takes them: what `batches.shoot_settings` and a shoot job keep. */
export const storedShoot = shootSettings;

/** A batch's video settings (`video_settings`, `videos_after_review`), as New batch's quote takes them. */
export const storedBatchVideo = videoSettings;

/** A video job's settings: the batch's, and what Make videos adds (its shots, a logo, music, a note). */
export const storedJobVideo = storedBatchVideo.extend({
  images: z.array(z.number().int()).optional(),
  logoUrl: z.string().nullable().optional(),
  logoFile: z.string().optional(),
  music: z.boolean().optional(),
  note: z.string().nullable().optional(),
});

const storedPhoto = z.object({
  path: z.string().nullable(),
  url: z.string().nullable(),
  source: z.string().optional(),
  hash: z.string().nullable().optional(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
});

/** A product's photos (`products.photos`), hero first. */
export const storedPhotos = z.array(storedPhoto);

export const storedNewProduct = z.object({
  name: z.string(),
  sourceDir: z.string(),
  path: z.string().optional(),
  photos: storedPhotos,
  identity: z.partialRecord(z.enum(IDENTITY_FIELDS), z.string()).optional(),
});

// Agents' requests (migration 011): what a person's yes makes.

/**
 * An agent's request's plan (`agent_requests.request`): a new batch, its settings as New batch sends them
 * and its products as they were scanned (requests stored before videos existed have no `kind`), or videos
 * added to a batch from its picks, as Make videos sends them, and how many products get one.
 */
export const storedAgentPlan = z.union([
  z.object({
    kind: z.literal('batch').optional(),
    request: CONTRACT['batches:create'].input.omit({ scanId: true }),
    products: z.array(storedNewProduct),
  }),
  z.object({
    kind: z.literal('videos'),
    videos: CONTRACT['videos:quote'].input,
    products: z.number().int().min(0),
  }),
]);
export type AgentPlan = z.output<typeof storedAgentPlan>;

// Exports (migrations 008, 009): the snapshot a run works from, its progress and report, its files' warnings.

const exportRequest = CONTRACT['export:start'].input;

const storedExportItem = z.object({
  key: z.string(),
  kind: z.enum(RESULT_KINDS),
  file: z.string(),
  productKey: z.string(),
  brand: z.string(),
  product: z.string(),
  sku: z.string(),
  handle: z.string(),
  // Snapshots taken before products had titles and alt texts (issue 29) have none.
  title: z.string().default(''),
  alt: z.string().default(''),
  style: z.string(),
  shot: z.number().int(),
  stars: z.number().int().min(0).max(5),
  flag: z.enum(['picked', 'rejected']).nullable(),
  batch: z.string(),
  jobId: z.string().nullable(),
  credits: z.number().nullable(),
  sourcePhotos: z.array(z.string()),
  aiGenerated: z.boolean(),
  focus: z.object({ x: z.number(), y: z.number() }).nullable().optional(),
});

/** An export's snapshot (`exports.snapshot`): its results, recipes, choice and date, fixed at its start. */
export const storedExportSnapshot = z.object({
  items: z.array(storedExportItem),
  /** A snapshot from before `allowUpscale` keeps its recipes' `size.enlarge: true` (legacy-recipe.ts). */
  recipes: z.array(z.preprocess(withLegacyUpscale, recipeSchema)),
  selection: exportRequest.shape.selection.unwrap().required(),
  date: z.string(),
  destination: z.string(),
  zip: exportRequest.shape.zip.unwrap(),
  manifest: exportRequest.shape.manifest.unwrap(),
  /** Older snapshots accepted no pre-flight warning. */
  acceptWarnings: exportRequest.shape.acceptWarnings.unwrap().default([]),
});

const count = z.number().int().min(0);

/** An export's progress as last written (`exports.progress`). */
export const storedExportProgress = z.object({
  id: z.string(),
  phase: z.enum(['files', 'zips']),
  done: count,
  total: count,
  written: count,
  identical: count,
  failed: count,
  bytesWritten: count,
  etaMs: z.number().nullable(),
  path: z.string(),
});

/** An ended export's report in short (`exports.report`). */
export const storedExportReport = z.object({
  written: count,
  identical: count,
  failed: count,
  manifests: z.array(z.string()),
  zips: z.array(z.string()),
  notes: z.array(z.string()).optional(),
  files: z.array(
    z.object({
      path: z.string(),
      recipe: z.string(),
      product: z.string(),
      status: z.enum(['written', 'identical', 'failed']),
      bytes: count,
      sha256: z.string(),
      warnings: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
});

/** The warnings a placed file was written with (`export_files.warnings`). */
export const storedWarnings = z.array(z.string());

// Photo storage (migration 004): its one row as SQLite returns it.

const storageInput = CONTRACT['storage:set'].input.shape;

/** The saved photo storage's row; the secret stays sealed here, opened only for the S3 host. */
export const storedPhotoStorage = z.object({
  bucket: storageInput.bucket,
  endpoint: z.string().nullable(),
  region: z.string().nullable(),
  prefix: z.string(),
  public_base_url: z.string().nullable(),
  url_ttl_seconds: z.number().int().positive(),
  access_key_id: z.string().nullable(),
  sealed_secret: z.instanceof(Buffer).nullable(),
  secret_hint: z.string().nullable(),
  checked_at: z.number().int(),
});

// Files of the data folder.

/** `photo-host.json`: the loopback host's secret (hex) and port, kept so its URLs outlive a restart. */
export const storedLoopbackHost = z.object({
  secret: z.string().regex(/^[0-9a-f]{64}$/, 'a secret is 64 hexadecimal digits'),
  port: z.number().int().min(0).max(65_535),
});

/** `owner.json`: who holds the queue, for messages only (a missing host or time is not known, not wrong). */
export const storedLeaseHolder = z.object({
  name: z.string(),
  pid: z.number().int(),
  host: z.string().catch(''),
  since: z.number().catch(0),
});

/** `export-recipes.json`: its entries, each parsed as a recipe on its own (one bad entry is set aside). */
export const storedRecipesFile = z.object({ recipes: z.array(z.unknown()).default([]) });

// Settings, in the front end's preferences (electron-store's JSON file in the app): read field by field.

const settingsInput = CONTRACT['settings:set'].input.shape;

const storedSettingsFields = {
  libraryDir: settingsInput.libraryDir.unwrap(),
  budgetMarginPercent: settingsInput.budgetMarginPercent.unwrap(),
  allowedHosts: settingsInput.allowedHosts.unwrap(),
  csvBom: settingsInput.csvBom.unwrap(),
  lastBatch: lastBatchSettings,
  agentServer: z.object({
    enabled: z.boolean(),
    port: z.number().int().min(0).max(65_535),
    token: z.string().min(1),
    exportFolder: CONTRACT['agents:setServer'].input.shape.exportFolder,
  }),
} satisfies { [K in keyof Settings]-?: z.ZodType<Settings[K]> };

/**
 * The saved settings over the defaults, field by field: a field that does not parse falls back to its
 * default (or to none, for an optional one) and is named in `unreadable`; every valid field is kept.
 */
export function readSettings(
  saved: unknown,
  defaults: Settings,
): { settings: Settings; unreadable: string[] } {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) {
    return { settings: defaults, unreadable: saved === undefined ? [] : ['the settings are not an object'] };
  }
  const fields = new Map(Object.entries(saved));
  const unreadable: string[] = [];
  const read = <S extends z.ZodType>(key: keyof Settings, schema: S): z.output<S> | undefined => {
    if (fields.get(key) === undefined) return undefined;
    const parsed = schema.safeParse(fields.get(key));
    if (parsed.success) return parsed.data;
    unreadable.push(`${key} (${reasonOf(parsed.error)})`);
    return undefined;
  };
  const libraryDir = read('libraryDir', storedSettingsFields.libraryDir);
  const budgetMarginPercent = read('budgetMarginPercent', storedSettingsFields.budgetMarginPercent);
  const lastBatch = read('lastBatch', storedSettingsFields.lastBatch);
  const allowedHosts = read('allowedHosts', storedSettingsFields.allowedHosts);
  const agentServer = read('agentServer', storedSettingsFields.agentServer);
  const csvBom = read('csvBom', storedSettingsFields.csvBom);
  return {
    settings: {
      ...defaults,
      ...(libraryDir !== undefined ? { libraryDir } : {}),
      ...(budgetMarginPercent !== undefined ? { budgetMarginPercent } : {}),
      ...(lastBatch !== undefined ? { lastBatch } : {}),
      ...(allowedHosts !== undefined ? { allowedHosts } : {}),
      ...(agentServer !== undefined ? { agentServer } : {}),
      ...(csvBom !== undefined ? { csvBom } : {}),
    },
    unreadable,
  };
}
