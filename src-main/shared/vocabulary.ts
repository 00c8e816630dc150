// The domain's closed sets, declared once: core keeps its rules over them (the moves between states in
// core/queue/states.ts, the prices in core/catalog.ts), every view type in models.ts is typed by them, and
// their words for people are in words.ts. A new member is added here and nowhere else: what must handle it
// (a transition table, a `Record` of words) stops compiling until it does.

// The service's catalog (../shared/api/ad-service-api.md); what its description leaves open is guessed in
// core/api/guesses.ts, never here.

export const SHOOT_STYLES = [
  'classic',
  'minimal',
  'luxury',
  'loud_luxury',
  'magazine',
  'editorial',
  'avant_garde',
  'element',
  'influencer',
  'lifestyle',
] as const;
export type ShootStyle = (typeof SHOOT_STYLES)[number];

export const MODES = ['product_only', 'with_model'] as const;
export type Mode = (typeof MODES)[number];

export const SHOT_COUNTS = [1, 4, 6] as const;
export type ShotCount = (typeof SHOT_COUNTS)[number];

export const QUALITIES = ['standard', 'pro', '4k'] as const;
export type Quality = (typeof QUALITIES)[number];

/** The description lists these as examples; the complete set is not shown. */
export const SHOOT_ASPECT_RATIOS = ['1:1', '4:5', '9:16', '16:9'] as const;
export type ShootAspectRatio = (typeof SHOOT_ASPECT_RATIOS)[number];

export const VIDEO_DURATIONS = [5, 10, 15] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];

export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

/** The channels an export recipe makes videos for (their specs: core/export/video-channels.ts). */
export const VIDEO_CHANNELS = ['instagram-reels', 'amazon', 'shopify'] as const;
export type VideoChannel = (typeof VIDEO_CHANNELS)[number];

export const VIDEO_ASPECT_RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

// The queue: what a batch is made of, where each part stands, and what the user may decide about it.

/** What one request to the service makes: a shoot (a product's shots) or a video ad. */
export const JOB_KINDS = ['shoot', 'video'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Where a job stands; what each means, and the moves between them, are in core/queue/states.ts. */
export const JOB_STATES = [
  'waiting',
  'submitting',
  'running',
  'downloading',
  'owed',
  'done',
  'failed',
  'outcome_unknown',
  'lost',
  'stale',
  'cancelled',
  'skipped',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The states whose outcome or results are in doubt, so that a person must decide (core/queue/states.ts says
 * why each): the service may have charged a create Adbatch never heard back from, may still be making a job
 * past its deadline, or was paid for results not on disk.
 */
export const IN_DOUBT_JOB_STATES = [
  'outcome_unknown',
  'stale',
  'owed',
] as const satisfies readonly JobState[];

/**
 * Answers about a job the service accepted and charged that leave its results in doubt, several polls in a
 * row: it says it does not know the job (404), or that the job completed but gives no result to download.
 * Such a job is `stale` (no longer polled, in doubt as one past its deadline is) with its answer's code; once
 * the user checked again and the service still answered so, with the code's `_again` (a retry, paying
 * again, is then offered beside checking again: decisions.ts).
 */
export const ODD_ANSWERS = ['not_found', 'no_results'] as const;
export type OddAnswer = (typeof ODD_ANSWERS)[number];
/** The failure code of a job stale on an odd answer: `not_found`, then `not_found_again`. */
export const oddAnswerCode = (answer: OddAnswer, again: boolean): string =>
  again ? `${answer}_again` : answer;
/** The odd answer a failure code says, and whether it came once checked again; null for any other code. */
export function oddAnswerOf(code: string | null | undefined): { answer: OddAnswer; again: boolean } | null {
  const answer = ODD_ANSWERS.find((odd) => code === odd || code === `${odd}_again`);
  return answer ? { answer, again: code !== answer } : null;
}

/** Where a batch's run stands, as stored: its moves are in core/queue/states.ts. */
export const BATCH_STATUSES = ['running', 'paused', 'cancelled', 'finished'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/**
 * What a batch is shown as, everywhere (the app, `adbatch status`, MCP `batch_status`, the CLI's exit): its
 * status, except that a finished batch with a job whose outcome or results are in doubt
 * (`IN_DOUBT_JOB_STATES`) is `needs_you`, never `finished`.
 *
 * Derived when a view is read (core/queue/views.ts), never stored: the doubt lives in the jobs' states, and
 * they change after the batch has settled (a finished batch's results found missing are owed again; the
 * usage report resolves an unknown outcome from the Usage screen; old databases hold finished batches with
 * jobs in doubt). A stored `needs_you` would have to be written again by every one of those moves, and one
 * forgotten would say "finished" over money in doubt; read from the jobs, it cannot drift. The run loop keeps
 * its own four statuses (a needs-you batch has nothing left to run: it is `finished` to the engine).
 */
export const BATCH_VIEW_STATUSES = [...BATCH_STATUSES, 'needs_you'] as const;
export type BatchViewStatus = (typeof BATCH_VIEW_STATUSES)[number];

/**
 * Why a batch is paused: `user` the user paused it; `insufficient_credits` the account ran out; `unauthorized`
 * the service refused its key; `hosting` its photos could not be made reachable (storage missing or failing);
 * `library` its results could not be written on this computer (disk full, folder not writable or gone);
 * `budget` the next job would pass its brand's monthly cap or the batch's own (the message names which);
 * `restored` the database is a backup the user restored: what it shows unsent may have been sent after it was
 * taken, so only a person resumes it (the message says what resuming may pay twice); `input_unreachable` an
 * address a job hands the service (a photo, the model image, the logo) did not answer Adbatch right before
 * the POST, so nothing was sent (the message names it and why).
 */
export const PAUSE_REASONS = [
  'user',
  'insufficient_credits',
  'unauthorized',
  'hosting',
  'library',
  'budget',
  'restored',
  'input_unreachable',
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/**
 * What the user may decide about a job that waits for them: `recheck` ask the service again, free (a stale
 * job is followed again; an outcome-unknown one is looked for in the service's usage report); `retry` send a
 * failed, lost or outcome-unknown job again (it costs credits again); `abandon` never send an outcome-unknown
 * job again; `redownload` download an owed job's results again (free). Core says which a job allows
 * (core/queue/decisions.ts); every front end offers those, and only those.
 */
export const JOB_DECISIONS = ['recheck', 'retry', 'abandon', 'redownload'] as const;
export type JobDecision = (typeof JOB_DECISIONS)[number];

/**
 * What the user may decide about a batch, as core allows it in the batch's state (core/queue/decisions.ts):
 * `recheck` is "Check all again", every job in doubt asked about again in one go, free.
 */
export const BATCH_DECISIONS = ['pause', 'resume', 'cancel', 'redownload', 'recheck'] as const;
export type BatchDecision = (typeof BATCH_DECISIONS)[number];

// Review: the results a batch made, and a designer's decisions on them.

/** A result: one shot of a shoot, or a video ad. */
export const RESULT_KINDS = ['shot', 'video'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

/** A designer's flag on a result; no flag is `null`. */
export const REVIEW_FLAGS = ['picked', 'rejected'] as const;
export type ReviewFlag = (typeof REVIEW_FLAGS)[number];

/** Why a result was rejected, one key each in Review. */
export const REJECT_REASONS = [
  'wrong_colour',
  'garbled_text',
  'deformed_product',
  'wrong_background',
  'other',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** A result's colour label, Lightroom's keys 6 to 9 in this order; no label is `null`. */
export const REVIEW_LABELS = ['red', 'yellow', 'green', 'blue'] as const;
export type ReviewLabel = (typeof REVIEW_LABELS)[number];

// Agents and exports.

/**
 * Where an agent's request to spend stands: waiting for a person's yes, turned into a batch (by a person's
 * yes or within the allowance), declined, or expired (the balance or the prices it was quoted on changed).
 */
export const AGENT_REQUEST_STATES = ['pending', 'created', 'declined', 'expired'] as const;
export type AgentRequestState = (typeof AGENT_REQUEST_STATES)[number];

/** Where an export stands: `stopped` it could not go on (a folder that cannot be written); `interrupted` the
 * app quit while it ran (it can be run again). */
export const EXPORT_STATES = ['running', 'done', 'cancelled', 'stopped', 'failed', 'interrupted'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/**
 * What the export's pre-flight finds before a file is written (core/export/plan-checks.ts). An error blocks
 * its file (the channel refuses it, or the path is too long for Windows); a warning blocks it too unless
 * the export accepts that kind ("export anyway": a plan option, a checkbox, `--accept-warning`).
 */
export const PREFLIGHT_ERRORS = ['too_small', 'too_many_bytes', 'path_too_long', 'too_many_files'] as const;
export type PreflightError = (typeof PREFLIGHT_ERRORS)[number];
export const PREFLIGHT_WARNINGS = [
  'below_recommended',
  'upscaled',
  'not_white',
  'low_fill',
  'not_srgb',
] as const;
export type PreflightWarning = (typeof PREFLIGHT_WARNINGS)[number];

/**
 * The front ends that remember their own last export per client brand (issue 31): the app's dialog and the
 * CLI's `adbatch export` each start from their own last recipes and folder. MCP's `export_batch` always
 * names its folder (one the user allowed for agents) and remembers nothing.
 */
export const EXPORT_FRONTS = ['app', 'cli'] as const;
export type ExportFront = (typeof EXPORT_FRONTS)[number];

/**
 * What a product is called where it is sold (issue 29): stored per product (core/products/), read from a
 * catalog or from names at ingest, edited in the product sheet, used by export names and manifests.
 */
export const IDENTITY_FIELDS = ['sku', 'handle', 'title', 'brand', 'alt'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
