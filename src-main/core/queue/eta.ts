import type { BatchEta } from '../../shared/models.ts';
import { mulberry32 } from '../../shared/seeded-random.ts';
import type { RateLimit } from '../scheduler/budget.ts';
import { aimPollMs, earlyLookMs } from '../scheduler/durations.ts';
import { fitLogNormal, tailDurations } from './duration-tail.ts';

// How long a batch has left (issue 27, point 9), as a pure function of what is known: the jobs still to
// run, the durations learned for their classes (scheduler/durations.ts) and the key's request budget.
//
// The batch is played forward a few dozen times, each time with every job's duration drawn from what was
// learned of its class: the durations its earlier batches learned (up to 120, enough to show a slow tail in
// its proportions: one job in ten is two or three of the 24 the planner aims from, or none) with the
// batch's own cohort (those that ended, and those still running as lasting at least until the last poll
// that found them running: censored, Kaplan-Meier, since the quickest end first), and past the longest of
// them the tail of a log-normal fitted to them all; with fewer than a few, from the 24 the planner aims
// from (helped by the kind's). A running job's draw is one longer
// than that poll, as the job records it (not than all it has run: it may be done, waiting for its next
// poll; nor a replay of the planner's polls, which looks early once the budget frees and so cannot be
// replayed from the budget's state now). Creates leave at the pace the budget allows (each job
// costs about REQUESTS_PER_JOB requests, its polls included), videos before shoots as the request pump
// sends them, a video once its shoot is seen done. A job is seen done at the first poll the
// planner would make after it is done (scheduler/poll-planner.ts): aimed at its class's 90th percentile
// while creates queue behind it, an early look (durations.ts `earlyLookMs`) once the budget has room.
//
// The point estimate is the median end of the plays, so it is as likely early as late: every pessimism
// (how wrong what was learned may be, a guess while little is known) goes into the range (10th to 90th
// percentile), never into the likeliest time. What was learned may itself be off: each play scales a
// kind's durations by one factor for all its jobs alike (a busy service slows them all), wide while little
// is learned, narrowing as more is. Moments, not spans, so that a front end counts down between answers.
// The draws are seeded: the same facts give the same answer.

/**
 * Requests a job costs in all: its create, the poll that sees it done, and the polls that found it running
 * (2.02 to 2.10 measured by bench:scheduler, docs/engine.md).
 */
const REQUESTS_PER_JOB = 2.1;
/** Plays of the batch: enough for a stable median and range, few enough to redo at each progress event. */
const PLAYS = 48;
/** Fewer learned durations than this in a class: little is known, and the estimate is said as a range. */
const FEW_SAMPLES = 3;
/**
 * How far off a kind's durations may be, in one play, with nothing learned: log-normal, half within 0.67
 * to 1.5 times the prior. With n durations learned, the sigma is this over the square root of n + 1.
 */
const GUESS_SIGMA = 0.6;
/** How far one job's guessed duration strays from its kind's, in one play: ±20 %. */
const GUESS_JITTER = 0.2;
/** The range is said ("1 to 3 min") when it is wider than this share of the likeliest time left. */
const WIDE_RANGE = 0.5;
/** A poll that finds a job running is followed by one at least this share of its class's typical later. */
const MIN_POLL_GAP = 0.05;
/** Nothing finishing for this many times the longest running class's typical duration is a stall. */
const STALL_TYPICALS = 2;
/** Durations a fitted tail is drawn from (evenly spread over it). */
const TAIL_DRAWS = 16;

export interface EtaJob {
  id: string;
  kind: 'shoot' | 'video';
  /** Not sent yet; at the service (sent or accepted); or done there, its results on their way. */
  phase: 'waiting' | 'running' | 'downloading';
  /** Ms since the service accepted it; 0 unless running. */
  elapsedMs: number;
  /**
   * Ms after its acceptance that the last poll found it still running (its duration is longer); 0 unless
   * running and polled. Not its whole elapsed time: it may be done since, its next poll not yet made.
   */
  polledRunningMs: number;
  /** The job it waits for (a video's shoot) while that one has work left; null otherwise. */
  after: string | null;
  /** The class its duration is learned in (scheduler/durations.ts `durationClass`). */
  durationClass: string;
  /** Durations learned for its class, in ms (empty: nothing learned yet): what the planner aims polls from. */
  samplesMs: readonly number[];
  /**
   * Durations learned for its class since the batch began, in ms: its own jobs that ended. With the jobs of
   * the class still running (censored: they last at least until their last poll) they are the batch's whole
   * cohort.
   */
  batchSamplesMs: readonly number[];
  /**
   * Durations learned for its class before the batch began, in ms, the most recent first (up to
   * `EARLIER_SAMPLES` in views.ts): with the cohort, what its durations are drawn from. The 24 the planner
   * aims from are too few to show a tail: one job in ten four times the typical is two or three of them, or
   * none.
   */
  earlierSamplesMs: readonly number[];
  /** Its class's duration before anything is learned, in ms (the prior, in the service's time). */
  priorMs: number;
}

export interface EtaInput {
  now: number;
  /** The batch's jobs with work left; jobs over or waiting for a person are not in it. */
  jobs: readonly EtaJob[];
  rate: RateLimit;
  /** When a job of the batch last finished, or when it began. */
  lastProgressAt: number;
  /** However short its jobs, a batch is not said to stall before this long without a job finishing. */
  minStallMs: number;
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(Number.MIN_VALUE, random()))) * Math.cos(2 * Math.PI * random());
}

function quantile<T>(sorted: readonly T[], q: number): T {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** A duration a class may take, as a multiple of its centre, and how likely it is. */
interface Outcome {
  ratio: number;
  weight: number;
}

/**
 * What is known of a class: its learned durations sorted (its polls are aimed from them), where a guess
 * is centred, and the outcomes its draws take.
 */
interface ClassFacts {
  /** The class's learned durations, as the planner aims its polls from them. */
  sorted: number[];
  /** What the planner aims from with nothing learned (the prior), else the learned median. */
  pollCentre: number;
  /** The durations drawn from: the earlier batches' and the batch's own once there are a few, else the recent ones. */
  drawnFrom: number[];
  centre: number;
  outcomes: Outcome[];
  /** The share of its jobs that outlast every learned duration, and how long they are guessed to take. */
  beyond: Outcome[];
}

/**
 * The durations a class takes, as Kaplan-Meier estimates them: each learned duration is an outcome, each
 * job of the class still running has lasted at least its elapsed time. Without the running ones, the
 * durations learned early in a batch are those of its quickest jobs (they finish first) and the batch's
 * slow tail is not seen until it is over. What outlasted every learned duration is put a third past the
 * longest wait seen.
 */
function survival(
  sorted: readonly number[],
  running: readonly number[],
  centre: number,
  fitTail: boolean,
): { outcomes: Outcome[]; beyond: Outcome[] } {
  const points = [
    ...sorted.map((ms) => ({ ms, done: true })),
    ...running.map((ms) => ({ ms, done: false })),
  ].sort((a, b) => a.ms - b.ms || Number(b.done) - Number(a.done));
  const outcomes: Outcome[] = [];
  let atRisk = points.length;
  let surviving = 1;
  for (const point of points) {
    if (point.done) {
      const weight = surviving / atRisk;
      outcomes.push({ ratio: point.ms / centre, weight });
      surviving -= weight;
    }
    atRisk--;
  }
  if (surviving <= 1e-9) return { outcomes, beyond: [] };
  // What outlasted every duration learned: the tail of the log-normal that fits them and the running ones
  // (duration-tail.ts), else a third past the longest wait seen.
  const longest = points.at(-1)?.ms ?? centre;
  const fit = fitTail && fitLogNormal(sorted, running);
  const tail = fit ? tailDurations(fit, longest, TAIL_DRAWS) : [longest * 1.3];
  return { outcomes, beyond: tail.map((ms) => ({ ratio: ms / centre, weight: surviving / tail.length })) };
}

/**
 * Each class's facts: its own outcomes once it learned enough; with one or two durations learned, the
 * shape of those of every class that learned enough (weighed by what each learned), around its own centre.
 * A class that learned enough keeps its own spread: shoots and videos are made by different work at the
 * service, and a spread of the shoots (their queue at a busy service, minutes of videos' pace against
 * seconds of theirs) said nothing of the videos' (bench:eta: it put the videos twice too late). What
 * outlasted every learned duration stays its own class's.
 */
function classFacts({ jobs }: EtaInput): Map<string, ClassFacts> {
  const classes = new Map<string, ClassFacts>();
  for (const job of jobs) {
    if (classes.has(job.durationClass)) continue;
    const sorted = [...job.samplesMs].sort((a, b) => a - b);
    const pollCentre = sorted.length > 0 ? quantile(sorted, 0.5) : job.priorMs;
    const pooled = [...job.batchSamplesMs, ...job.earlierSamplesMs].sort((a, b) => a - b);
    const drawnFrom = pooled.length >= FEW_SAMPLES ? pooled : sorted;
    const centre = drawnFrom.length > 0 ? quantile(drawnFrom, 0.5) : job.priorMs;
    const running = jobs
      .filter((other) => other.durationClass === job.durationClass && other.phase === 'running')
      .map((other) => other.polledRunningMs);
    const { outcomes, beyond } =
      drawnFrom.length > 0
        ? survival(drawnFrom, running, centre, drawnFrom === pooled)
        : { outcomes: [], beyond: [] };
    classes.set(job.durationClass, { sorted, pollCentre, drawnFrom, centre, outcomes, beyond });
  }
  const enough = [...classes.values()].filter((known) => known.drawnFrom.length >= FEW_SAMPLES);
  const learned = enough.reduce((sum, known) => sum + known.drawnFrom.length, 0);
  // Each class's outcomes weigh by what it learned; a pooled whole weighs 1, like each class's own.
  const pooled = enough.flatMap((known) =>
    known.outcomes.map((outcome) => ({
      ...outcome,
      weight: (outcome.weight * known.drawnFrom.length) / learned,
    })),
  );
  for (const known of classes.values()) {
    if (known.drawnFrom.length === 0) continue;
    if (known.drawnFrom.length >= FEW_SAMPLES) {
      known.outcomes = [...known.outcomes, ...known.beyond];
      continue;
    }
    // A class keeps its own share beyond everything learned; the rest is drawn from the pool.
    const own = 1 - known.beyond.reduce((sum, outcome) => sum + outcome.weight, 0);
    const base = pooled.length > 0 ? pooled : known.outcomes;
    const total = base.reduce((sum, outcome) => sum + outcome.weight, 0);
    known.outcomes = [
      ...base.map((outcome) => ({ ...outcome, weight: (outcome.weight / total) * own })),
      ...known.beyond,
    ];
  }
  return classes;
}

/** An outcome drawn by its weight. */
function pick(outcomes: readonly Outcome[], random: () => number): number {
  let left = random() * outcomes.reduce((sum, outcome) => sum + outcome.weight, 0);
  for (const outcome of outcomes) {
    left -= outcome.weight;
    if (left <= 0) return outcome.ratio;
  }
  return outcomes.at(-1)!.ratio;
}

/**
 * A duration of the class, in one play: with nothing learned, a guess around its prior (one factor for
 * its kind, each job ±20 % about it); else a learned outcome, times the play's factor for its kind.
 */
function draw(facts: ClassFacts, kindFactor: number, random: () => number): number {
  if (facts.drawnFrom.length === 0)
    return facts.centre * kindFactor * (1 + GUESS_JITTER * (2 * random() - 1));
  return facts.centre * pick(facts.outcomes, random) * kindFactor;
}

/**
 * A duration longer than `outlasted`: the job ran at least that long. Drawn from the outcomes longer than
 * that alone (drawing and throwing away shorter ones gives up too often on a slow tail, which is just what
 * a job that outlasted the usual durations is likely in); past every outcome, a quarter more on average.
 */
function drawLonger(facts: ClassFacts, kindFactor: number, outlasted: number, random: () => number): number {
  const longer = facts.outcomes.filter((outcome) => facts.centre * outcome.ratio * kindFactor > outlasted);
  if (facts.drawnFrom.length > 0 && longer.length > 0)
    return facts.centre * pick(longer, random) * kindFactor;
  for (let attempt = 0; facts.drawnFrom.length === 0 && attempt < 16; attempt++) {
    const duration = draw(facts, kindFactor, random);
    if (duration > outlasted) return duration;
  }
  return outlasted * (1.1 + 0.3 * random());
}

/**
 * The polls the planner makes of a job sent at `sentAt` while they find it running, in ms after it was
 * sent: each aimed at the 90th percentile of the durations longer than the last, or, once the budget has
 * room to spare (from `freeAt`), an early look (durations.ts `earlyLookMs`: at their even odds, and past
 * the typical a little after the last look), which the pump makes as soon as the budget frees.
 */
function* polls(sorted: readonly number[], centre: number, sentAt: number, freeAt: number) {
  let polled = 0;
  for (let poll = 0; poll < 64; poll++) {
    const planned = aimPollMs(sorted, centre, polled, 0.9);
    const early = Math.max(earlyLookMs(sorted, centre, polled), freeAt - sentAt);
    polled = Math.max(Math.min(planned, early), polled + centre * MIN_POLL_GAP);
    yield polled;
  }
}

/**
 * When a job that takes `duration` is seen done, in ms after it was sent at `sentAt`: at the first poll
 * made after it is done, and after `notBefore` (now, for a running job: a poll not yet made cannot have seen it).
 */
function seenAfter(facts: ClassFacts, duration: number, sentAt: number, freeAt: number, notBefore = 0) {
  for (const poll of polls(facts.sorted, facts.pollCentre, sentAt, freeAt)) {
    if (poll >= duration && poll > notBefore) return poll;
  }
  return Math.max(duration, notBefore);
}

/** Inserts keeping `list` sorted by `at`. */
function insertByTime<T extends { at: number }>(list: T[], item: T): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at <= item.at) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

/**
 * Where the time left goes, for the job that ends the batch: waiting for its shoot to be seen done, then
 * for the budget to send it, the service's work, and the wait for a poll to see it done.
 */
export interface EtaParts {
  shootMs: number;
  budgetMs: number;
  workMs: number;
  seenMs: number;
}

/** One play's end, and its parts. */
interface Play {
  end: number;
  parts: EtaParts;
}

/** What every play of a batch starts from. */
interface Start {
  input: EtaInput;
  /** Each job's class facts, by job id. */
  facts: Map<string, ClassFacts>;
  /** How far apart creates leave while they queue, in ms. */
  spacing: number;
  /**
   * When the budget has room to spare: once the creates queued now have left (a lower bound: videos not
   * yet ready leave later, but each alone leaves the budget mostly free).
   */
  freeAt: number;
}

function startOf(input: EtaInput): Start {
  const spacing = (input.rate.windowMs / input.rate.limit) * REQUESTS_PER_JOB;
  const freeAt = input.now + spacing * input.jobs.filter((job) => job.phase === 'waiting').length;
  const classes = classFacts(input);
  const facts = new Map(input.jobs.map((job) => [job.id, classes.get(job.durationClass)!]));
  return { input, facts, spacing, freeAt };
}

/** One play of the batch from `now`: when its last job is seen done. */
function play({ input, facts, spacing, freeAt }: Start, random: () => number): Play {
  const waitingOn = new Map<string, EtaJob[]>();
  const shoots: EtaJob[] = [];
  const ready: Array<{ at: number; job: EtaJob }> = [];
  const learned = (kind: EtaJob['kind']) =>
    Math.max(
      0,
      ...input.jobs.filter((job) => job.kind === kind).map((job) => facts.get(job.id)!.drawnFrom.length),
    );
  const kindFactor = (kind: EtaJob['kind']) =>
    Math.exp((GUESS_SIGMA / Math.sqrt(learned(kind) + 1)) * normal(random));
  const factors = { shoot: kindFactor('shoot'), video: kindFactor('video') };
  let last: Play = { end: input.now, parts: { shootMs: 0, budgetMs: 0, workMs: 0, seenMs: 0 } };
  /** The job is seen done at `at`: what waited for it can be sent from then. */
  const seen = (job: EtaJob, at: number, parts: EtaParts) => {
    if (at > last.end) last = { end: at, parts };
    for (const next of waitingOn.get(job.id) ?? []) insertByTime(ready, { at, job: next });
  };
  for (const job of input.jobs) {
    if (job.after) waitingOn.set(job.after, [...(waitingOn.get(job.after) ?? []), job]);
  }
  for (const job of input.jobs) {
    const known = facts.get(job.id)!;
    if (job.phase === 'downloading') seen(job, input.now, { shootMs: 0, budgetMs: 0, workMs: 0, seenMs: 0 });
    else if (job.phase === 'running') {
      const sentAt = input.now - job.elapsedMs;
      const duration = drawLonger(known, factors[job.kind], job.polledRunningMs, random);
      const seenMs = seenAfter(known, duration, sentAt, freeAt, job.elapsedMs);
      seen(job, sentAt + seenMs, {
        shootMs: 0,
        budgetMs: 0,
        workMs: Math.max(0, duration - job.elapsedMs),
        seenMs: seenMs - Math.max(duration, job.elapsedMs),
      });
    } else if (job.after === null && job.kind === 'video') insertByTime(ready, { at: input.now, job });
    else if (job.after === null) shoots.push(job);
  }
  // Creates at the budget's pace: a video whose shoot is done first, else the next shoot.
  let slot = input.now;
  while (shoots.length > 0 || ready.length > 0) {
    let job: EtaJob;
    /** When it could have left: now, or when its shoot was seen done. */
    let readyAt = input.now;
    if (ready.length > 0 && (ready[0]!.at <= slot || shoots.length === 0)) {
      const next = ready.shift()!;
      readyAt = next.at;
      slot = Math.max(slot, next.at);
      job = next.job;
    } else job = shoots.shift()!;
    const known = facts.get(job.id)!;
    const duration = draw(known, factors[job.kind], random);
    const seenMs = seenAfter(known, duration, slot, freeAt);
    seen(job, slot + seenMs, {
      shootMs: readyAt - input.now,
      budgetMs: slot - readyAt,
      workMs: duration,
      seenMs: seenMs - duration,
    });
    slot += spacing;
  }
  return last;
}

/** The plays of the batch, sorted by their end. */
function plays(start: Start): Play[] {
  const random = mulberry32(27);
  return Array.from({ length: PLAYS }, () => play(start, random)).sort((a, b) => a.end - b.end);
}

/** Where the likeliest play's time left goes (bench:eta shows it beside the truth); null when nothing is left. */
export function explainEta(input: EtaInput): EtaParts | null {
  return input.jobs.length === 0 ? null : quantile(plays(startOf(input)), 0.5).parts;
}

/** The batch's likely end and range, and when it would stall; null when nothing is left to run. */
export function estimateEta(input: EtaInput): BatchEta | null {
  if (input.jobs.length === 0) return null;
  const start = startOf(input);
  const ends = plays(start).map((one) => one.end);
  const at = quantile(ends, 0.5);
  const from = quantile(ends, 0.1);
  const to = quantile(ends, 0.9);
  const fewKnown = input.jobs.some((job) => job.samplesMs.length < FEW_SAMPLES);
  const running = input.jobs.filter((job) => job.phase === 'running');
  const longest = Math.max(0, ...running.map((job) => start.facts.get(job.id)!.centre));
  return {
    at: Math.round(at),
    from: Math.round(from),
    to: Math.round(to),
    range: fewKnown || to - from > WIDE_RANGE * (at - input.now),
    lastProgressAt: input.lastProgressAt,
    stalledAt:
      running.length > 0
        ? Math.round(input.lastProgressAt + Math.max(input.minStallMs, STALL_TYPICALS * longest))
        : null,
  };
}
