import type { Db } from '../db/open.ts';
import type { Job } from '../queue/types.ts';
import { DurationModel, durationClass } from './durations.ts';

// When to poll a running job. Polls are aimed at the moment a job is done with probability `quantile`, from
// durations learned per class of job (`durations.ts`), so that the budget is spent on answers, not on
// "still running". Until a kind has its first duration, a couple of jobs probe and the rest wait.

/** Jobs of a kind that probe for its first duration; the rest wait for what they learn. */
const PROBING_JOBS = 2;

export interface PollPlannerOptions {
  db: Db;
  now: () => number;
  /** Aim at the moment a job is done with this probability (default 0.9). */
  quantile?: number;
  /** Multiplies the duration priors and the deadline floor (a sandbox faster than real time). */
  timeScale?: number;
}

export class PollPlanner {
  private readonly durations: DurationModel;
  private readonly quantile: number;
  private readonly scale: number;
  private readonly probing = new Map<Job['kind'], Set<string>>();
  /** Per job, how long after acceptance a poll last found it running (learning brackets, early polls). */
  private readonly lastRunningAt = new Map<string, number>();

  constructor(private readonly options: PollPlannerOptions) {
    this.scale = options.timeScale ?? 1;
    this.quantile = options.quantile ?? 0.9;
    this.durations = new DurationModel(options.db, options.now, this.scale);
  }

  /** The first poll of a job just accepted, in ms after its acceptance. */
  firstPollDelayMs(job: Job): number {
    return this.pollDelayMs(job, 0);
  }

  /** A poll found the job still running `elapsedMs` after acceptance: when to poll it next (absolute). */
  stillRunning(job: Job, elapsedMs: number): number {
    this.lastRunningAt.set(job.id, elapsedMs);
    const acceptedAt = job.acceptedAt ?? this.options.now() - elapsedMs;
    const next = this.pollDelayMs(job, elapsedMs);
    const minGap = this.durations.typicalMs(durationClass(job)) * 0.05;
    return acceptedAt + Math.max(next, elapsedMs + minGap);
  }

  /**
   * The service finished the job (completed) `elapsedMs` after acceptance. Returns true when this was the first duration learned of its kind: the jobs that waited for it
   * should now be aimed (`aimedPollAt`).
   */
  completed(job: Job, elapsedMs: number): boolean {
    const jobClass = durationClass(job);
    const wasKnown = this.durations.knows(jobClass);
    this.durations.learn(jobClass, this.lastRunningAt.get(job.id) ?? null, elapsedMs);
    this.lastRunningAt.delete(job.id);
    this.probing.get(job.kind)?.delete(job.id);
    return !wasKnown;
  }

  /** When a job should be polled now that its class is known (absolute), or null if it is not. */
  aimedPollAt(job: Job): number | null {
    const jobClass = durationClass(job);
    if (job.acceptedAt === null || !this.durations.knows(jobClass)) return null;
    const elapsed = this.lastRunningAt.get(job.id) ?? 0;
    return job.acceptedAt + this.durations.pollAfterMs(jobClass, elapsed, this.quantile);
  }

  /** When a job is done with even odds: the moment for an early look when the budget has room to spare. */
  earlyPollAt(job: Job): number {
    const jobClass = durationClass(job);
    if (job.acceptedAt === null || !this.durations.knows(jobClass))
      return job.nextPollAt ?? Number.POSITIVE_INFINITY;
    const lastSeenRunning = this.lastRunningAt.get(job.id) ?? 0;
    const evenOdds = job.acceptedAt + this.durations.pollAfterMs(jobClass, lastSeenRunning, 0.5);
    return Math.min(evenOdds, job.nextPollAt ?? evenOdds);
  }

  /** A job still unfinished this long after acceptance is stale: ten times the typical, at least 10 min. */
  deadlineMs(job: Job): number {
    return Math.max(10 * this.durations.typicalMs(durationClass(job)), 600_000 * this.scale);
  }

  /**
   * When to poll a job next, in ms after its acceptance. With nothing known of its kind, only a couple of
   * jobs probe (each probe is a request that probably finds the job unfinished); the others wait at the
   * prior until the first duration is learned, when they are aimed.
   */
  private pollDelayMs(job: Job, elapsedMs: number): number {
    const jobClass = durationClass(job);
    if (!this.durations.knows(jobClass)) {
      const probes = this.probing.get(job.kind) ?? new Set<string>();
      this.probing.set(job.kind, probes);
      if (!probes.has(job.id) && probes.size >= PROBING_JOBS) {
        return Math.max(elapsedMs * 1.6, this.durations.typicalMs(jobClass));
      }
      probes.add(job.id);
    }
    return this.durations.pollAfterMs(jobClass, elapsedMs, this.quantile);
  }
}
