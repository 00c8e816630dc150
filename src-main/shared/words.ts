import { counted, noun } from './counted.ts';
import type {
  BatchEta,
  BatchProgress,
  ExportTally,
  JobView,
  PreflightSummaryView,
  ServiceTrouble,
  ShootSettingsView,
  VideoSettingsView,
} from './models.ts';
import {
  type AgentRequestState,
  type BatchDecision,
  type BatchViewStatus,
  type ExportState,
  type IdentityField,
  IN_DOUBT_JOB_STATES,
  type JobDecision,
  type JobState,
  type Mode,
  type OddAnswer,
  oddAnswerOf,
  type PauseReason,
  type PreflightError,
  type PreflightWarning,
  type Quality,
  type ReviewLabel,
  type ShootStyle,
  type VideoChannel,
} from './vocabulary.ts';

// The domain's closed sets in words for people, once for the app, the CLI and MCP (whose answers give the
// machine id and these words beside it). Each table is a `Record` over its set, so a new state, reason or
// decision does not compile until it has words: no front end ever shows a raw id, or its own spelling of one.

/** `1 credit`, `1,200 credits`. */
export function credits(count: number): string {
  return `${count.toLocaleString('en')} ${noun(count, 'credit')}`;
}

/** The first letter upper-case, for words that begin a line. */
export function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The catalog's choices (the service names them by id only).

export const STYLE_WORDS: Record<ShootStyle, string> = {
  classic: 'Classic',
  minimal: 'Minimal',
  luxury: 'Luxury',
  loud_luxury: 'Loud luxury',
  magazine: 'Magazine',
  editorial: 'Editorial',
  avant_garde: 'Avant-garde',
  element: 'Element',
  influencer: 'Influencer',
  lifestyle: 'Lifestyle',
};

export const QUALITY_WORDS: Record<Quality, string> = { standard: 'Standard', pro: 'Pro', '4k': '4K' };

export const MODE_WORDS: Record<Mode, string> = { product_only: 'Product only', with_model: 'With a model' };

export const VIDEO_CHANNEL_WORDS: Record<VideoChannel, string> = {
  'instagram-reels': 'Instagram Reels and Stories',
  amazon: 'Amazon',
  shopify: 'Shopify',
};

// A batch's settings in the catalog's words, for people who read them without the pickers: the batch page, a
// client's statement, an agent's request. A stored setting this version does not know reads as its id.

/** "4 shots · Classic · Standard · 1:1 · Product only", and the background colour when one was given. */
export function shootWords(
  shoot: Pick<ShootSettingsView, 'shots' | 'style' | 'quality' | 'aspectRatio' | 'mode' | 'backgroundColor'>,
): string {
  return [
    counted(shoot.shots, 'shot'),
    STYLE_WORDS[shoot.style] ?? shoot.style,
    QUALITY_WORDS[shoot.quality] ?? shoot.quality,
    shoot.aspectRatio,
    MODE_WORDS[shoot.mode] ?? shoot.mode,
    ...(shoot.backgroundColor ? [`background ${shoot.backgroundColor}`] : []),
  ].join(' · ');
}

/** "10 s · 720p · as its photos · Product only": no aspect ratio given, the service shapes it like its photos. */
export function videoWords(
  video: Pick<VideoSettingsView, 'duration' | 'resolution' | 'aspectRatio' | 'mode'>,
): string {
  return [
    `${video.duration} s`,
    video.resolution,
    video.aspectRatio ?? 'as its photos',
    MODE_WORDS[video.mode] ?? video.mode,
  ].join(' · ');
}

// Jobs: what is happening to each, and what the user may decide about it.

/** Where a job stands, as a designer says it: what is happening to it, never "jobs" or the service's words. */
export const JOB_STATE_WORDS: Record<JobState, string> = {
  waiting: 'waiting its turn',
  submitting: 'being sent',
  running: 'being made',
  downloading: 'being downloaded',
  owed: 'paid, not downloaded',
  done: 'done',
  failed: 'failed',
  outcome_unknown: 'outcome unknown',
  lost: 'charged, results out of reach',
  stale: 'no answer from the service',
  cancelled: 'cancelled',
  skipped: 'not made: its shoot did not finish',
};

/** A stale job's state when the service's answers, not its silence, left it in doubt (vocabulary.ts `ODD_ANSWERS`). */
const ODD_ANSWER_WORDS: Record<OddAnswer, string> = {
  not_found: 'unknown to the service',
  no_results: 'done, but no results given',
};

/** Stale jobs the service answered about without their results, counted together in a batch's summary. */
const STALE_ON_ANSWERS_WORDS = 'answered without results';

/** A running job past its deadline: still followed, only slow (poll-planner.ts gives it hours more). */
export const TAKING_LONGER_WORDS = 'taking longer than usual';

/** What the service's own status says of a running job it has not started on. */
const QUEUED_AT_THE_SERVICE = new Set(['pending', 'queued']);

/**
 * A job's state in the words of the moment: a job waiting in a paused batch waits for the pause, one the
 * service has queued is queued there, one whose results cannot be saved waits for that.
 */
export function jobStateWords(
  job: Pick<JobView, 'kind' | 'state' | 'remoteStatus' | 'late' | 'creditsCharged' | 'creditsRefunded'> & {
    failureCode?: string | null;
  },
  batch: { paused: boolean; savingBlocked: boolean },
): string {
  if (job.state === 'waiting' && batch.paused) return `${job.kind} waiting for the pause to end`;
  if (job.state === 'running' && QUEUED_AT_THE_SERVICE.has(job.remoteStatus ?? '')) {
    return `queued at the service${job.late ? `, ${TAKING_LONGER_WORDS}` : ''}`;
  }
  if (job.state === 'running' && job.late) return `${JOB_STATE_WORDS.running}, ${TAKING_LONGER_WORDS}`;
  if (job.state === 'downloading' && batch.savingBlocked) return 'paid, waiting to be saved';
  return jobWords(job);
}

/**
 * A job's state in words, a failure's with what became of its credits, from the ledger: refunded (the
 * service gives back what a failed generation cost), or never charged (a create the service refused).
 * "failed (refunded)" for both would tell a designer of a refund their statement does not show.
 */
export function jobWords(
  job: Pick<JobView, 'state' | 'creditsCharged' | 'creditsRefunded'> & { failureCode?: string | null },
): string {
  const odd = job.state === 'stale' ? oddAnswerOf(job.failureCode) : null;
  if (odd) return ODD_ANSWER_WORDS[odd.answer];
  if (job.state !== 'failed') return JOB_STATE_WORDS[job.state];
  if (job.creditsCharged === 0) return 'failed (not charged)';
  return job.creditsRefunded >= job.creditsCharged ? 'failed (refunded)' : JOB_STATE_WORDS.failed;
}

/** A decision on a job, as its button or its hint names it. */
export const JOB_DECISION_WORDS: Record<JobDecision, string> = {
  recheck: 'Check again',
  retry: 'Retry',
  abandon: 'Abandon',
  redownload: 'Download again',
};

/**
 * Credits a create may have cost though its answer was lost, until the service says: "8 credits not yet
 * settled" (a designer's words; the ledger's own name for them is "at stake").
 */
export function unsettledCredits(count: number): string {
  return `${credits(count)} not yet settled`;
}

/** What a job's retry and cost words read of it. */
type Priced = Pick<JobView, 'price' | 'creditsAtStake' | 'creditsCharged' | 'creditsRefunded'>;

/** What the service kept of the job's credits: charged and not refunded (a lost job's). */
const kept = (job: Priced) => job.creditsCharged - job.creditsRefunded;

/**
 * What a decision spends, in words; null when it neither spends nor saves anything worth saying. Asking the
 * service again and downloading again are free: said, so that they read as the safe choice beside a Retry.
 */
export function decisionCostWords(decision: JobDecision, job: Priced): string | null {
  if (decision === 'retry') {
    return `costs ${credits(job.price)}${job.creditsAtStake > 0 || kept(job) > 0 ? ' again' : ''}`;
  }
  if (decision === 'redownload' || decision === 'recheck') return 'free';
  return null;
}

/** A decision with what it spends: "Retry (costs 4 credits again)", "Download again (free)", "Abandon". */
export function decisionWords(decision: JobDecision, job: Priced): string {
  const cost = decisionCostWords(decision, job);
  return `${JOB_DECISION_WORDS[decision]}${cost ? ` (${cost})` : ''}`;
}

/** What a retry risks, said before the user confirms it: paying twice, when the first create may have been. */
export function retryWarning(job: Pick<JobView, 'kind'> & Priced): string {
  if (job.creditsAtStake > 0) {
    return `The service may already have made and charged this ${job.kind} (${unsettledCredits(job.creditsAtStake)}); sending it again costs ${credits(job.price)} more.`;
  }
  if (kept(job) > 0) {
    return `The service charged this ${job.kind} already (${credits(kept(job))}) though its results cannot be had; sending it again costs ${credits(job.price)} more.`;
  }
  return `Sending this ${job.kind} again costs ${credits(job.price)}.`;
}

// Batches.

export const BATCH_STATUS_WORDS: Record<BatchViewStatus, string> = {
  running: 'running',
  paused: 'paused',
  cancelled: 'cancelled',
  finished: 'finished',
  needs_you: 'needs you',
};

/** Why a batch is paused, in a badge's few words. */
export const PAUSE_REASON_WORDS: Record<PauseReason, string> = {
  user: 'paused',
  insufficient_credits: 'paused: out of credits',
  unauthorized: 'paused: key refused',
  hosting: 'paused: photos not uploaded',
  library: 'paused: cannot save results',
  budget: 'paused at its cap',
  restored: 'paused: restored from a backup',
  input_unreachable: 'paused: an input does not answer',
};

/** A batch's status, with why when it is paused: "running", "paused: out of credits". */
export function batchStatusWords(batch: Pick<BatchProgress, 'status' | 'statusReason'>): string {
  return batch.status === 'paused' && batch.statusReason
    ? PAUSE_REASON_WORDS[batch.statusReason]
    : BATCH_STATUS_WORDS[batch.status];
}

/** A decision on a batch, as its button names it. */
export const BATCH_DECISION_WORDS: Record<BatchDecision, string> = {
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  redownload: 'Download again (free)',
  recheck: 'Check all again (free)',
};

/**
 * Why a batch needs you, with the credits not yet settled, for its badge's neighbour, its notification, `adbatch
 * status` and MCP: "2 shoots or videos in doubt, 8 credits not yet settled (outcome unknown: 2). Check all again asks
 * the service, free: nothing is sent again without your word." Null when no job is in doubt.
 */
export function needsYouWords(
  batch: Pick<BatchProgress, 'states' | 'creditsInDoubt' | 'attention' | 'staleOnAnswers'>,
): string | null {
  if (batch.attention === 0) return null;
  // Stale jobs the service answered about without their results are said apart from the silent ones.
  const counts = IN_DOUBT_JOB_STATES.flatMap((state) =>
    state === 'stale'
      ? [
          [JOB_STATE_WORDS.stale, (batch.states.stale ?? 0) - batch.staleOnAnswers] as const,
          [STALE_ON_ANSWERS_WORDS, batch.staleOnAnswers] as const,
        ]
      : [[JOB_STATE_WORDS[state], batch.states[state] ?? 0] as const],
  );
  const inDoubt = counts.filter(([, count]) => count > 0).map(([words, count]) => `${words}: ${count}`);
  const stake = batch.creditsInDoubt > 0 ? `, ${unsettledCredits(batch.creditsInDoubt)}` : '';
  return `${counted(batch.attention, 'shoot or video', 'shoots or videos')} in doubt${stake} (${inDoubt.join('; ')}). Check all again asks the service, free: nothing is sent again without your word.`;
}

// Review.

/** A colour label's name, said beside its colour (colour is never the only cue). */
export const REVIEW_LABEL_WORDS: Record<ReviewLabel, string> = {
  red: 'Red',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
};

// Agents' requests and exports.

export const AGENT_REQUEST_STATE_WORDS: Record<AgentRequestState, string> = {
  pending: 'waiting for approval',
  created: 'approved',
  declined: 'declined',
  expired: 'expired',
};

/**
 * How an export that ran to its end (`done`) went: "Exported" only when no file failed. A run whose every file
 * failed exported nothing, though it ran to its end: what only the rendered pixels show (a background that is
 * not white) can hold back every file after the start (docs/export.md).
 */
export function exportDoneWords(counts: ExportTally): 'Exported' | 'Partly exported' | 'Nothing exported' {
  if (counts.failed === 0) return 'Exported';
  return counts.written + counts.identical === 0 ? 'Nothing exported' : 'Partly exported';
}

/** An export's state in words for an agent or a log: `done` says whether it wrote everything (exportDoneWords). */
export function exportStateWords(view: { state: ExportState } & ExportTally): string {
  if (view.state !== 'done' || view.failed === 0) return EXPORT_STATE_WORDS[view.state];
  return `done: ${exportDoneWords(view).toLowerCase()}, ${view.failed} failed`;
}

export const EXPORT_STATE_WORDS: Record<ExportState, string> = {
  running: 'running',
  done: 'done',
  cancelled: 'cancelled',
  stopped: 'stopped',
  failed: 'failed',
  interrupted: 'interrupted',
};

/** The pre-flight's kinds, as a heading over the files they concern. */
export const PREFLIGHT_WORDS: Record<PreflightError | PreflightWarning, string> = {
  too_small: 'under the channel minimum size',
  too_many_bytes: 'over the channel file size limit',
  path_too_long: 'path too long for Windows (260 characters)',
  too_many_files: 'past the files the channel takes per product',
  below_recommended: 'under the channel recommended size',
  upscaled: 'enlarged from a smaller result',
  not_white: 'background not pure white',
  low_fill: 'product too small in the frame',
  not_srgb: 'not sRGB',
};

/**
 * An export refused because the pre-flight holds back every file: how many, each kind that holds them with
 * an example, and the warnings to accept to write them anyway, by their ids (the agents' acceptWarnings;
 * the CLI's --accept-warning, which its pre-flight lines name).
 */
export function nothingWrittenWords(files: number, kinds: readonly PreflightSummaryView[]): string {
  const holding = kinds.filter((kind) => kind.severity === 'error' || !kind.accepted);
  const why = holding
    .map((kind) => `${kind.files} ${kind.words} (e.g. ${kind.example.replace(/\.$/, '')})`)
    .join('; ');
  const acceptable = holding.flatMap((kind) => (kind.severity === 'warning' ? [kind.kind] : []));
  return `Nothing would be written: the pre-flight holds back ${files === 1 ? 'the only file' : `all ${files} files`}: ${why}.${acceptable.length > 0 ? ` To write what its warnings hold back anyway, accept them: ${acceptable.join(', ')}.` : ''}`;
}

// How long a batch has left (core/queue/eta.ts), said from moments with the reader's clock: it counts down
// between answers.

/** A span as people say it: "40 s", "3 min", "1 h 5 min". */
export function spanWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * "about 20 to 40 s", "about 2 to 6 min", "about 40 s to 3 min": one unit when both ends share it; "about",
 * as the likeliest time says it, for a range is a guess too, not a promise of its ends.
 */
function rangeWords(fromMs: number, toMs: number): string {
  const from = spanWords(fromMs);
  const to = spanWords(toMs);
  const unit = (words: string) => words.replace(/^[\d ]+/, '');
  const sameUnit = unit(from) === unit(to) && (unit(to) === 's' || unit(to) === 'min');
  if (from === to) return `about ${to}`;
  return `about ${sameUnit ? from.replace(/ \w+$/, '') : from} to ${to}`;
}

/**
 * What is left of a running batch at `now`: "about 3 min left", "about 1 to 3 min left" while little is known
 * (from its start: before any job ends, the service's typical durations and the key's budget give a range),
 * "under 1 min left", or, when nothing has finished for long though jobs run, "waiting on the service for
 * 4 min".
 */
export function etaWords(eta: BatchEta, now: number): string {
  if (eta.stalledAt !== null && now >= eta.stalledAt) {
    return `waiting on the service for ${spanWords(now - eta.lastProgressAt)}`;
  }
  const to = eta.to - now;
  if (to < 1000) return 'almost done';
  if (eta.range ? eta.from <= now : eta.at <= now) return `under ${spanWords(to)} left`;
  if (eta.range) return `${rangeWords(eta.from - now, to)} left`;
  return `about ${spanWords(eta.at - now)} left`;
}

/**
 * A running batch whose service does not answer, at `now`: "the service has not answered for 2 min (the
 * connection was refused): Adbatch keeps asking", or "… has answered only with errors for 2 min (HTTP 503)
 * …". Said instead of the time left, which means nothing then.
 */
export function serviceTroubleWords(trouble: ServiceTrouble, now: number): string {
  const span = spanWords(now - trouble.since);
  const what =
    trouble.kind === 'no_answer'
      ? `has not answered for ${span}`
      : `has answered only with errors for ${span}`;
  return `the service ${what} (${trouble.reason}): Adbatch keeps asking`;
}

/**
 * A running batch whose service does not answer, where a line is short (the app's list, the OS notice); its
 * page says since when.
 */
export const SERVICE_TROUBLE_BADGE: Record<ServiceTrouble['kind'], string> = {
  no_answer: 'the service does not answer',
  errors: 'the service answers with errors',
};

/** What a running batch says of its time left at `now`: the service's trouble, else its ETA; null with neither. */
export function timeLeftWords(
  batch: { eta: BatchEta | null; serviceTrouble: ServiceTrouble | null },
  now: number,
): string | null {
  if (batch.serviceTrouble) return serviceTroubleWords(batch.serviceTrouble, now);
  return batch.eta ? etaWords(batch.eta, now) : null;
}

/** A product's identity field as a column of the product sheet, its CSV and the CLI. */
export const IDENTITY_FIELD_WORDS: Record<IdentityField, string> = {
  sku: 'SKU',
  handle: 'Handle',
  title: 'Title',
  brand: 'Brand',
  alt: 'Alt text',
};
