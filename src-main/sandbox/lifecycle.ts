import { type DurationSpread, durationFactor } from './duration-spread.ts';
import type { Quality, VideoDuration, VideoResolution } from './rules.ts';
import type { Job, JobFailure, Step } from './state.ts';

// How jobs move through their statuses. A job's whole path is planned at creation as timestamps, and
// `advance` applies whatever has come due. Nothing runs on a timer: every observation (a poll, a balance,
// a usage report) first advances the jobs, so the state is exact at any instant and survives a restart.
//
// Sandbox choices (the description leaves them open): shoots never report `analyzed`; videos go
// pending -> generating -> completed; a failure is reported as `failed` with an extra `error` object.

export const TERMINAL = new Set(['completed', 'failed']);

export interface Timing {
  /** Multiplies every duration: 1 is real time, 0.01 a hundred times faster. */
  timeScale: number;
  /** Probability that a job fails while generating (its credits are then refunded). */
  failureRate: number;
  /** How generation times spread from job to job (default: steady, ±20 %). */
  durations?: DurationSpread;
  random: () => number;
}

/** Seconds per generated image by quality: a full standard set of 4 lands in about 20-50 s. */
const SECONDS_PER_SHOT: Record<Quality, number> = { standard: 5, pro: 7, '4k': 10 };
/** Video generation grows with length and resolution: several minutes in all. */
const VIDEO_RESOLUTION_FACTOR: Record<VideoResolution, number> = { '480p': 1, '720p': 1.5, '1080p': 2.5 };

function jitter(timing: Timing, seconds: number, spread = 0.2): number {
  return seconds * (1 - spread + 2 * spread * timing.random()) * 1000 * timing.timeScale;
}

/** A job's generation: its typical seconds, jittered, times its draw from the duration spread. */
function generation(timing: Timing, seconds: number): number {
  return jitter(timing, seconds) * (timing.durations ? durationFactor(timing.durations, timing.random) : 1);
}

function finish(
  timing: Timing,
  steps: Step[],
  generatingFrom: number,
  doneAt: number,
): {
  plan: Step[];
  failure: JobFailure | null;
} {
  if (timing.random() >= timing.failureRate)
    return { plan: [...steps, { status: 'completed', at: doneAt }], failure: null };
  const failAt = generatingFrom + (doneAt - generatingFrom) * timing.random();
  return {
    plan: [...steps, { status: 'failed', at: failAt }],
    failure: { code: 'generation_failed', message: 'The generation failed; the credits were refunded.' },
  };
}

export function planShoot(createdAt: number, shots: number, quality: Quality, timing: Timing) {
  const analyzingAt = createdAt + jitter(timing, 1.5, 0.5);
  const generatingAt = analyzingAt + jitter(timing, 6);
  const doneAt = generatingAt + generation(timing, shots * SECONDS_PER_SHOT[quality]);
  const steps = [
    { status: 'pending', at: createdAt },
    { status: 'analyzing', at: analyzingAt },
    { status: 'generating', at: generatingAt },
  ];
  return finish(timing, steps, generatingAt, doneAt);
}

export function planVideo(
  createdAt: number,
  duration: VideoDuration,
  resolution: VideoResolution,
  timing: Timing,
) {
  const generatingAt = createdAt + jitter(timing, 4, 0.5);
  const doneAt = generatingAt + generation(timing, 60 + duration * 8 * VIDEO_RESOLUTION_FACTOR[resolution]);
  const steps = [
    { status: 'pending', at: createdAt },
    { status: 'generating', at: generatingAt },
  ];
  return finish(timing, steps, generatingAt, doneAt);
}

/** Reroutes a job to fail at `at` (not before its analysis would have ended, for input problems). */
export function failPlan(job: Job, failure: JobFailure, at: number): void {
  const applied = job.plan.slice(0, job.history.length);
  const upcoming = job.plan
    .slice(job.history.length)
    .filter((step) => !TERMINAL.has(step.status) && step.at < at);
  job.failure = failure;
  job.plan = [...applied, ...upcoming, { status: 'failed', at }];
}

/** When the job's input analysis ends: the earliest a problem with its inputs is reported. */
export function analysisEnd(job: Job): number {
  const generating = job.plan.find((step) => step.status === 'generating');
  return generating?.at ?? job.createdAt;
}

/**
 * Applies every planned step that has come due. A job completes only once its results are rendered,
 * so a slow render holds it in `generating`. `failedNow` tells the caller to refund.
 */
export function advance(job: Job, now: number): { changed: boolean; failedNow: boolean } {
  let changed = false;
  let failedNow = false;
  for (const step of job.plan.slice(job.history.length)) {
    if (step.at > now) break;
    const readyAt = step.status === 'completed' ? job.renderedAt : step.at;
    if (readyAt === null) break;
    const at = Math.max(step.at, readyAt, job.history.at(-1)?.at ?? 0);
    job.history.push({ status: step.status, at });
    job.status = step.status;
    changed = true;
    if (step.status === 'failed') failedNow = true;
  }
  return { changed, failedNow };
}
