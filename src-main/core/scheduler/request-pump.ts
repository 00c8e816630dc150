import type { QueueStore } from '../queue/store.ts';
import type { Job } from '../queue/types.ts';
import type { RateLimit, RequestBudget, Slot } from './budget.ts';
import type { JobRunner } from './job-runner.ts';
import type { PollPlanner } from './poll-planner.ts';
import type { ServiceKeys } from './service-keys.ts';

// The request-budget pump: each time a key's budget has a slot free, it goes to the most useful request
// of that key's batches, and the runner sends it.
//
// When the budget is the limit, requests that unlock more work go first. A probe of a kind with no
// duration known yet comes before everything: until it answers, every job of its kind waits at the prior
// (two such polls at most per kind). Then a video's create (the longest jobs), a due shoot poll (it unlocks
// that video), a shoot's create, and last a due video poll (it unlocks only a download): video polls wait
// for the creates, and the end of a batch is spent on them. A budget with room to spare and nothing due
// looks early at a job that is done with even odds, or, past its typical duration, again soon after the
// last look (durations.ts `earlyLookMs`).

/** How many of the soonest polls are looked at for an early poll. */
const EARLY_POLL_LOOKAHEAD = 16;

export interface RequestPumpOptions {
  store: QueueStore;
  /** The batches the engine drives (it adds to them as it runs). */
  batchIds: ReadonlySet<string>;
  keys: ServiceKeys;
  planner: PollPlanner;
  runner: JobRunner;
  rateLimit: RateLimit;
  /** Requests in flight at most, all keys together (default 8). */
  maxInFlight?: number;
  /** A request ended: the pump may have room again. */
  onSettled: () => void;
  /** A request's work threw (a bug or the database): said, and the job stays where it was. */
  onInternalError: (job: Job, error: Error) => void;
}

export class RequestPump {
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: RequestPumpOptions) {}

  /** Requests under way. */
  get active(): number {
    return this.inFlight.size;
  }

  private get maxInFlight(): number {
    return this.options.maxInFlight ?? 8;
  }

  /** Sends what this key's budget allows now; returns when to look again. */
  pump(keyId: string, now: number): number {
    const { keys, runner } = this.options;
    const budget = keys.budget(keyId);
    while (this.inFlight.size < this.maxInFlight) {
      const wait = budget.waitMs();
      if (wait > 0) return now + wait;
      const next = this.nextRequest(keyId, budget, now);
      if (!next) break;
      const slot = budget.take();
      const job = next.job;
      if (next.kind === 'create') this.launch(job, slot, () => runner.submit(job, budget, slot));
      else this.launch(job, slot, () => runner.poll(job, budget, slot));
    }
    // A full pipe is reopened by the next answer (it wakes the loop), not by the clock.
    if (this.inFlight.size >= this.maxInFlight) return Number.POSITIVE_INFINITY;
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const job of this.soonestPolls(keyId)) {
      wakeAt = Math.min(wakeAt, job.nextPollAt ?? wakeAt, this.options.planner.earlyPollAt(job));
    }
    return wakeAt;
  }

  private nextRequest(
    keyId: string,
    budget: RequestBudget,
    now: number,
  ): { kind: 'create' | 'poll'; job: Job } | null {
    const probe = this.nextProbe(keyId, now);
    if (probe) return { kind: 'poll', job: probe };
    const video = this.nextReady(keyId, 'video');
    if (video) return { kind: 'create', job: video };
    const shootPoll = this.nextDuePoll(keyId, 'shoot', now);
    if (shootPoll) return { kind: 'poll', job: shootPoll };
    const shoot = this.nextReady(keyId, 'shoot');
    if (shoot) return { kind: 'create', job: shoot };
    const videoPoll = this.nextDuePoll(keyId, 'video', now) ?? this.nextEarlyPoll(keyId, budget, now);
    return videoPoll ? { kind: 'poll', job: videoPoll } : null;
  }

  /** A due poll of a job probing for its kind's first duration. */
  private nextProbe(keyId: string, now: number): Job | null {
    const { store, planner, batchIds } = this.options;
    for (const jobId of planner.probes()) {
      if (this.inFlight.has(jobId)) continue;
      const job = store.jobs.get(jobId);
      if (job?.state !== 'running' || !batchIds.has(job.batchId)) continue;
      if ((job.nextPollAt ?? 0) > now || !planner.isProbing(job)) continue;
      if (store.batches.get(job.batchId)?.keyId === keyId) return job;
    }
    return null;
  }

  /**
   * A budget with room to spare and nothing due is spent on an early look at a job that is done with even
   * odds: a free chance to detect it sooner (the end of a batch is made of such waits), and a poll that
   * finds it running still teaches a bound. Not done while the budget is busy: there a miss costs a slot.
   */
  private nextEarlyPoll(keyId: string, budget: RequestBudget, now: number): Job | null {
    if (budget.available() <= this.options.rateLimit.limit / 2) return null;
    return this.soonestPolls(keyId).find((job) => this.options.planner.earlyPollAt(job) <= now) ?? null;
  }

  /** The running jobs of this key polled soonest, none of them in flight. */
  private soonestPolls(keyId: string): Job[] {
    return this.options.store.jobs
      .runningByNextPoll([...this.options.batchIds], keyId, this.inFlight.size + EARLY_POLL_LOOKAHEAD)
      .filter((job) => !this.inFlight.has(job.id));
  }

  private nextDuePoll(keyId: string, kind: Job['kind'], now: number): Job | null {
    const candidates = this.options.store.jobs.runningByNextPoll(
      [...this.options.batchIds],
      keyId,
      this.inFlight.size + 1,
      kind,
    );
    const job = candidates.find((candidate) => !this.inFlight.has(candidate.id));
    return job && (job.nextPollAt ?? 0) <= now ? job : null;
  }

  private nextReady(keyId: string, kind: Job['kind']): Job | null {
    const candidates = this.options.store.jobs.readyToSubmit(
      [...this.options.batchIds],
      keyId,
      this.inFlight.size + 1,
      kind,
    );
    return candidates.find((job) => !this.inFlight.has(job.id)) ?? null;
  }

  /** Runs a job's request in its budget slot; a slot whose request never left is given back. */
  private launch(job: Job, slot: Slot, work: () => Promise<void>): void {
    this.inFlight.add(job.id);
    work()
      .catch((error: unknown) => this.options.onInternalError(job, error as Error))
      .finally(() => {
        slot.release();
        this.inFlight.delete(job.id);
        this.options.onSettled();
      });
  }
}
