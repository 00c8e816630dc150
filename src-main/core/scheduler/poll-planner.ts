import type { Db } from '../db/open.ts';
import type { Job } from '../queue/types.ts';
import { type RateLimit, SERVICE_RATE_LIMIT } from './budget.ts';
import { DurationModel, durationClass, durationKind } from './durations.ts';
import { TimeScales } from './time-scales.ts';

// When to poll a running job. Polls are aimed at the moment a job is done with probability `quantile`, from
// durations learned per class of job (`durations.ts`), so that the budget is spent on answers, not on
// "still running". Until a kind has its first duration, a couple of jobs probe and the rest wait. A job of
// the sandbox is planned in the sandbox's time and learns in its classes (`time-scales.ts`).

/** Jobs of a kind that probe for its first duration; the rest wait for what they learn. */
const PROBING_JOBS = 2;
/** However short its jobs, a job is not late before this long (in its service's time). */
const MIN_DEADLINE_MS = 600_000;
/**
 * How long past its deadline a late job is still polled before it is given up, in real time whatever the
 * time scale: the sandbox's rendering is real CPU time, and a busy service's queue is real time too.
 * GUESS: three hours. The description says videos take "several minutes" and promises nothing for a busy
 * day; three hours past ten times the typical is far beyond any delay seen, and costs a late job only a
 * poll every so often (a quarter of the time it has run).
 */
export const GIVE_UP_AFTER_MS = 3 * 60 * 60_000;
/**
 * One job in this many, of a class already known, is first looked at before its aim, at a share of it
 * (LOOK_BELOW_SHARES in turn). Aimed at the 90th percentile, most polls learn only "done by then": a class
 * whose durations were learned too long, or that got quicker, would keep its polls late for ever (every
 * bracket then holds the aim, `brackets.ts`). The look that comes early costs a request, one job in five.
 */
const LOOK_BELOW_EVERY = 5;
const LOOK_BELOW_SHARES = [0.5, 0.7, 0.35, 0.85, 0.6];
/** A late job's next poll comes this share of its running time later: the gaps grow as it drags on. */
const LATE_POLL_GROWTH = 0.25;
/** The share of a key's request budget that its late jobs may use together, at most. */
const LATE_BUDGET_SHARE = 0.25;

export interface PollPlannerOptions {
  db: Db;
  now: () => number;
  /** Aim at the moment a job is done with this probability (default 0.9). */
  quantile?: number;
  /** Which jobs run on the sandbox, and how fast it runs (default: every job in real time). */
  timeScales?: TimeScales;
  /** The keys' request budget, which late jobs share a quarter of (default: the service's, 60 a minute). */
  rateLimit?: RateLimit;
  /** How long past its deadline a late job is given up, in real time (default `GIVE_UP_AFTER_MS`). */
  giveUpAfterMs?: number;
}

export class PollPlanner {
  private readonly durations: DurationModel;
  private readonly quantile: number;
  private readonly timeScales: TimeScales;
  /** Per kind of job on its service (`durationKind`), the jobs probing for its first duration. */
  private readonly probing = new Map<string, Set<string>>();
  /** Per job, how long after acceptance a poll last found it running (learning brackets, early polls). */
  private readonly lastRunningAt = new Map<string, number>();
  /** Jobs whose last poll failed: they wait for their backed-off poll, never an early one. */
  private readonly pollFailedLast = new Set<string>();
  /** Running jobs a poll found past their deadline: their polls keep to their plan, never an early one. */
  private readonly late = new Set<string>();
  /** Per key (`Batch.keyId`), the latest poll planned for a late job: the next is planned apart from it. */
  private readonly lastLatePoll = new Map<string, number>();
  /** Per class, how many of its jobs had their first poll aimed (LOOK_BELOW_EVERY). */
  private readonly firstAims = new Map<string, number>();

  constructor(private readonly options: PollPlannerOptions) {
    this.timeScales = options.timeScales ?? new TimeScales(() => false, 1);
    this.quantile = options.quantile ?? 0.9;
    this.durations = new DurationModel(options.db, options.now, this.timeScales.sandbox);
  }

  /** The first poll of a job just accepted, in ms after its acceptance; now and then below its aim. */
  firstPollDelayMs(job: Job): number {
    const aim = this.pollDelayMs(job, 0);
    const jobClass = this.classOf(job);
    if (!this.durations.knows(jobClass)) return aim;
    const count = (this.firstAims.get(jobClass) ?? 0) + 1;
    this.firstAims.set(jobClass, count);
    if (count % LOOK_BELOW_EVERY !== 0) return aim;
    return aim * LOOK_BELOW_SHARES[(count / LOOK_BELOW_EVERY) % LOOK_BELOW_SHARES.length]!;
  }

  /**
   * A poll found the job still running `elapsedMs` after acceptance: when to poll it next (absolute). A job
   * past its deadline is late: polled at growing gaps, inside its share of its key's budget (`keyId`; one
   * key for all when not given).
   */
  stillRunning(job: Job, elapsedMs: number, keyId = ''): number {
    this.pollFailedLast.delete(job.id);
    this.lastRunningAt.set(job.id, elapsedMs);
    const acceptedAt = job.acceptedAt ?? this.options.now() - elapsedMs;
    if (job.deadlineAt !== null && acceptedAt + elapsedMs > job.deadlineAt) {
      this.late.add(job.id);
      // Late polls of a key are planned apart by at least their share's spacing: however many jobs drag
      // on, together they never plan more than that share of any window.
      const rate = this.options.rateLimit ?? SERVICE_RATE_LIMIT;
      const spacing = rate.windowMs / (rate.limit * LATE_BUDGET_SHARE);
      const wanted = acceptedAt + elapsedMs * (1 + LATE_POLL_GROWTH);
      const at = Math.max(wanted, (this.lastLatePoll.get(keyId) ?? Number.NEGATIVE_INFINITY) + spacing);
      this.lastLatePoll.set(keyId, at);
      return at;
    }
    const next = this.pollDelayMs(job, elapsedMs);
    const minGap = this.durations.typicalMs(this.classOf(job)) * 0.05;
    return acceptedAt + Math.max(next, elapsedMs + minGap);
  }

  /**
   * A poll found the job finished (completed) `elapsedMs` after acceptance. Returns true when this was the
   * first duration learned of its kind: the jobs that waited for it should now be aimed (`aimedPollAt`).
   */
  completed(job: Job, elapsedMs: number): boolean {
    const jobClass = this.classOf(job);
    const wasKnown = this.durations.knows(jobClass);
    // Every poll that finds a job done teaches its bracket, late or not. Leaving out the polls the budget
    // delayed once kept estimates from creeping up on "done by then" alone, but it chose what was learned
    // by the budget: while creates fill it, every poll is late, and the polls on time came at the end of a
    // batch, for its slowest jobs (bench:eta, 100 products, wide: videos learned at 17 to 24 s against the
    // sandbox's 6 to 19). Brackets are estimated together (brackets.ts): a late one is wide, and takes the
    // shape of the narrow ones it holds.
    this.durations.learn(jobClass, this.lastRunningAt.get(job.id) ?? null, elapsedMs);
    this.forget(job);
    return !wasKnown && this.durations.knows(jobClass);
  }

  /** The job no longer runs (done, failed, stale): nothing more to plan for it. */
  forget(job: Job): void {
    this.lastRunningAt.delete(job.id);
    this.pollFailedLast.delete(job.id);
    this.probing.get(durationKind(this.classOf(job)))?.delete(job.id);
    this.late.delete(job.id);
  }

  /** Whether a job still running at `now` has been late for so long that it is given up (`stale`). */
  givenUp(job: Job, now: number): boolean {
    return job.deadlineAt !== null && now > job.deadlineAt + (this.options.giveUpAfterMs ?? GIVE_UP_AFTER_MS);
  }

  /** A poll failed (network, 5xx, 429): the job waits for its backed-off poll. */
  pollFailed(jobId: string): void {
    this.pollFailedLast.add(jobId);
  }

  /** True while the job's kind has no duration known and this job is one of those probing for it. */
  isProbing(job: Job): boolean {
    const jobClass = this.classOf(job);
    return (
      !this.durations.knows(jobClass) && (this.probing.get(durationKind(jobClass))?.has(job.id) ?? false)
    );
  }

  /** The jobs probing for the first duration of their kind, every kind together. */
  probes(): string[] {
    return [...this.probing.values()].flatMap((jobs) => [...jobs]);
  }

  /** When a job should be polled now that its class is known (absolute), or null if it is not. */
  aimedPollAt(job: Job): number | null {
    const jobClass = this.classOf(job);
    if (job.acceptedAt === null || !this.durations.knows(jobClass)) return null;
    const elapsed = this.lastRunningAt.get(job.id) ?? 0;
    return job.acceptedAt + this.durations.pollAfterMs(jobClass, elapsed, this.quantile);
  }

  /**
   * When a job is done with even odds, or past its typical duration a little after the last look
   * (`earlyLookMs`): the moment for an early look when the budget has room to spare.
   * Never earlier than its planned poll for a job whose last poll failed (that poll is a backoff), nor for
   * a late one (its gaps keep late jobs inside their share of the budget).
   */
  earlyPollAt(job: Job): number {
    const jobClass = this.classOf(job);
    const planned = this.pollFailedLast.has(job.id) || this.late.has(job.id);
    if (job.acceptedAt === null || !this.durations.knows(jobClass) || planned)
      return job.nextPollAt ?? Number.POSITIVE_INFINITY;
    const lastSeenRunning = this.lastRunningAt.get(job.id) ?? 0;
    const look = job.acceptedAt + this.durations.earlyLookMs(jobClass, lastSeenRunning);
    return Math.min(look, job.nextPollAt ?? look);
  }

  /**
   * A job still unfinished this long after acceptance is late, taking longer than usual: ten times the
   * typical, at least 10 min (in its service's time). It is still polled; given up only much later (`givenUp`).
   */
  deadlineMs(job: Job): number {
    const floor = MIN_DEADLINE_MS * this.timeScales.of(job.batchId);
    return Math.max(10 * this.durations.typicalMs(this.classOf(job)), floor);
  }

  private classOf(job: Job): string {
    return durationClass(job, this.timeScales.isSandbox(job.batchId));
  }

  /**
   * When to poll a job next, in ms after its acceptance. With nothing known of its kind, only a couple of
   * jobs probe (each probe is a request that probably finds the job unfinished); the others wait at the
   * prior until the first duration is learned, when they are aimed.
   */
  private pollDelayMs(job: Job, elapsedMs: number): number {
    const jobClass = this.classOf(job);
    if (!this.durations.knows(jobClass)) {
      const kind = durationKind(jobClass);
      const probes = this.probing.get(kind) ?? new Set<string>();
      this.probing.set(kind, probes);
      if (!probes.has(job.id) && probes.size >= PROBING_JOBS) {
        return Math.max(elapsedMs * 1.6, this.durations.typicalMs(jobClass));
      }
      probes.add(job.id);
    }
    return this.durations.pollAfterMs(jobClass, elapsedMs, this.quantile);
  }
}
