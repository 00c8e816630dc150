import type { BatchEta } from '../../shared/models.ts';
import type { RateLimit } from '../scheduler/budget.ts';

// How long a batch has left (issue 27, point 9), as a pure function of what is known: the jobs still to
// run, the durations learned for their classes (scheduler/durations.ts) and the key's request budget.
//
// The batch is played forward a few dozen times, each time with every job's duration drawn from what was
// learned of its class (its median times a spread drawn from every class of the batch that has learned
// enough, counting the jobs still running as lasting at least what they have run: a busy service or a
// slow tail shows in shoots and videos alike, and the shoots, learned first, show it before the videos
// can; or, as often as little is known, a guess around the
// prior or the median, off by one factor for the whole kind in that play: a guess is wrong for every job of
// a kind alike, not for each on its own, or the slowest of many guesses would be wildly slow): creates leave at the pace the budget allows (each job costs about
// REQUESTS_PER_JOB requests, its polls included), videos before shoots as the request pump sends them, a
// video once its shoot is seen done, and a job is seen done at the poll aimed at it (the median or the
// 90th percentile of its class, then in growing steps). A running job's draw is one longer than it has
// already run. The batch's end in each play gives the likeliest end (the median) and a range (10th to
// 90th percentile). It is given as moments, not spans, so that a front end counts down between answers.
// The draws are seeded: the same facts give the same answer.

/**
 * Requests a job costs in all: its create, the poll that sees it done, and the polls that found it running
 * (2.02 to 2.10 measured by bench:scheduler, docs/engine.md).
 */
const REQUESTS_PER_JOB = 2.1;
/** Plays of the batch: enough for a stable median and range, few enough to redo at each progress event. */
const PLAYS = 24;
/** Fewer learned durations than this in a class: little is known, and the estimate is said as a range. */
const FEW_SAMPLES = 3;
/** How far off a kind's guess may be, in one play: log-normal, half within 0.67 to 1.5 times its centre. */
const GUESS_SIGMA = 0.6;
/** How far one job's guessed duration strays from its kind's, in one play: ±20 %. */
const GUESS_JITTER = 0.2;
/** The range is said ("1 to 3 min") when it is wider than this share of the likeliest time left. */
const WIDE_RANGE = 0.5;
/** Nothing finishing for this many times the longest running class's typical duration is a stall. */
const STALL_TYPICALS = 2;

export interface EtaJob {
  id: string;
  kind: 'shoot' | 'video';
  /** Not sent yet; at the service (sent or accepted); or done there, its results on their way. */
  phase: 'waiting' | 'running' | 'downloading';
  /** Ms since the service accepted it; 0 unless running. */
  elapsedMs: number;
  /** The job it waits for (a video's shoot) while that one has work left; null otherwise. */
  after: string | null;
  /** The class its duration is learned in (scheduler/durations.ts `durationClass`). */
  durationClass: string;
  /** Durations learned for its class, in ms (empty: nothing learned yet). */
  samplesMs: readonly number[];
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

/** mulberry32: a small seeded generator, so that the same facts give the same estimate. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(Number.MIN_VALUE, random()))) * Math.cos(2 * Math.PI * random());
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** A duration a class may take, as a multiple of its centre, and how likely it is. */
interface Outcome {
  ratio: number;
  weight: number;
}

/**
 * What is known of a class: its learned durations sorted, where a guess is centred, the percentiles its
 * polls are aimed at, and the outcomes its draws take.
 */
interface ClassFacts {
  sorted: number[];
  centre: number;
  q50: number;
  q90: number;
  outcomes: Outcome[];
  /** The share of its jobs that outlast every learned duration, and how long they are guessed to take. */
  beyond: Outcome | null;
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
): { outcomes: Outcome[]; beyond: Outcome | null } {
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
  const longest = points.at(-1)?.ms ?? centre;
  return {
    outcomes,
    beyond: surviving > 1e-9 ? { ratio: (longest * 1.3) / centre, weight: surviving } : null,
  };
}

/**
 * Each class's facts, its learned outcomes pooled with those of every class that learned enough (weighed
 * by what each learned): a busy service or a slow tail shows in shoots and videos alike. What outlasted
 * every learned duration stays its own class's: a shoot running five times its typical says nothing of
 * how far past theirs the videos go.
 */
function classFacts(jobs: readonly EtaJob[]): Map<string, ClassFacts> {
  const classes = new Map<string, ClassFacts>();
  for (const job of jobs) {
    if (classes.has(job.durationClass)) continue;
    const sorted = [...job.samplesMs].sort((a, b) => a - b);
    const centre = sorted.length > 0 ? quantile(sorted, 0.5) : job.priorMs;
    const q90 = sorted.length > 0 ? quantile(sorted, 0.9) : job.priorMs;
    const running = jobs
      .filter((other) => other.durationClass === job.durationClass && other.phase === 'running')
      .map((other) => other.elapsedMs);
    const { outcomes, beyond } =
      sorted.length > 0 ? survival(sorted, running, centre) : { outcomes: [], beyond: null };
    classes.set(job.durationClass, { sorted, centre, q50: centre, q90, outcomes, beyond });
  }
  const enough = [...classes.values()].filter((known) => known.sorted.length >= FEW_SAMPLES);
  const learned = enough.reduce((sum, known) => sum + known.sorted.length, 0);
  // Each class's outcomes weigh by what it learned; a pooled whole weighs 1, like each class's own.
  const pooled = enough.flatMap((known) =>
    known.outcomes.map((outcome) => ({
      ...outcome,
      weight: (outcome.weight * known.sorted.length) / learned,
    })),
  );
  for (const known of classes.values()) {
    if (known.sorted.length === 0) continue;
    // A class keeps its own share beyond everything learned; the rest is drawn from the pool.
    const own = 1 - (known.beyond?.weight ?? 0);
    const base = pooled.length > 0 ? pooled : known.outcomes;
    const total = base.reduce((sum, outcome) => sum + outcome.weight, 0);
    known.outcomes = [
      ...base.map((outcome) => ({ ...outcome, weight: (outcome.weight / total) * own })),
      ...(known.beyond ? [known.beyond] : []),
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
 * A duration of the class: a learned one, or (as often as little is known) a guess around its centre, off
 * by `guessFactor`, the play's factor for the job's kind.
 */
function draw(facts: ClassFacts, guessFactor: number, random: () => number): number {
  const n = facts.sorted.length;
  if (n === 0 || random() < 1 / (n + 1)) {
    return facts.centre * guessFactor * (1 + GUESS_JITTER * (2 * random() - 1));
  }
  return facts.centre * pick(facts.outcomes, random);
}

/** A duration longer than `elapsed`: the job has run that long already. Past every draw, a quarter more. */
function drawLonger(facts: ClassFacts, guessFactor: number, elapsed: number, random: () => number): number {
  for (let attempt = 0; attempt < 16; attempt++) {
    const duration = draw(facts, guessFactor, random);
    if (duration > elapsed) return duration;
  }
  return elapsed * (1.1 + 0.4 * random());
}

/**
 * When a job that takes `duration` is seen done, after it was sent: at the poll aimed at the 90th
 * percentile of its class, or, while the budget has room to spare (`busy` false), at the early look at
 * its median.
 */
function seenAfter(facts: ClassFacts, duration: number, busy: boolean): number {
  // Nothing learned: probes, each 1.6 times later than the last, overshoot by some 15 % on average.
  if (facts.sorted.length === 0) return duration * 1.15;
  if (!busy && duration <= facts.q50) return facts.q50;
  if (duration <= facts.q90) return facts.q90;
  // Past the aimed polls, the planner backs off by a quarter of the time waited.
  return duration * 1.125;
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

/** One play of the batch from `now`: when its last job is seen done. */
function play(input: EtaInput, facts: Map<string, ClassFacts>, random: () => number): number {
  const spacing = (input.rate.windowMs / input.rate.limit) * REQUESTS_PER_JOB;
  const waitingOn = new Map<string, EtaJob[]>();
  const shoots: EtaJob[] = [];
  const ready: Array<{ at: number; job: EtaJob }> = [];
  const guessFactors = {
    shoot: Math.exp(GUESS_SIGMA * normal(random)),
    video: Math.exp(GUESS_SIGMA * normal(random)),
  };
  let end = input.now;
  /** The job is seen done at `at`: what waited for it can be sent from then. */
  const seen = (job: EtaJob, at: number) => {
    end = Math.max(end, at);
    for (const next of waitingOn.get(job.id) ?? []) insertByTime(ready, { at, job: next });
  };
  for (const job of input.jobs) {
    if (job.after) waitingOn.set(job.after, [...(waitingOn.get(job.after) ?? []), job]);
  }
  const sending = input.jobs.some((job) => job.phase === 'waiting');
  for (const job of input.jobs) {
    const known = facts.get(job.id)!;
    if (job.phase === 'downloading') seen(job, input.now);
    else if (job.phase === 'running') {
      const duration = drawLonger(known, guessFactors[job.kind], job.elapsedMs, random);
      seen(job, input.now + seenAfter(known, duration, sending) - job.elapsedMs);
    } else if (job.after === null && job.kind === 'video') insertByTime(ready, { at: input.now, job });
    else if (job.after === null) shoots.push(job);
  }
  // Creates at the budget's pace: a video whose shoot is done first, else the next shoot.
  let slot = input.now;
  while (shoots.length > 0 || ready.length > 0) {
    let job: EtaJob;
    if (ready.length > 0 && (ready[0]!.at <= slot || shoots.length === 0)) {
      const next = ready.shift()!;
      slot = Math.max(slot, next.at);
      job = next.job;
    } else job = shoots.shift()!;
    const known = facts.get(job.id)!;
    // The budget is busy while creates are still queued behind this one.
    const busy = shoots.length > 0 || (ready[0]?.at ?? Number.POSITIVE_INFINITY) <= slot + spacing;
    seen(job, slot + seenAfter(known, draw(known, guessFactors[job.kind], random), busy));
    slot += spacing;
  }
  return end;
}

/** The batch's likely end and range, and when it would stall; null when nothing is left to run. */
export function estimateEta(input: EtaInput): BatchEta | null {
  if (input.jobs.length === 0) return null;
  const classes = classFacts(input.jobs);
  const facts = new Map(input.jobs.map((job) => [job.id, classes.get(job.durationClass)!]));
  const random = seeded(27);
  const ends = Array.from({ length: PLAYS }, () => play(input, facts, random)).sort((a, b) => a - b);
  const at = quantile(ends, 0.5);
  const from = quantile(ends, 0.1);
  const to = quantile(ends, 0.9);
  const fewKnown = input.jobs.some((job) => job.samplesMs.length < FEW_SAMPLES);
  const running = input.jobs.filter((job) => job.phase === 'running');
  const longest = Math.max(0, ...running.map((job) => facts.get(job.id)!.centre));
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
