import type { Db } from '../db/open.ts';
import type { Job, ShootSettings, VideoSettings } from '../queue/types.ts';
import { type Bracket, durationsOf, exactly } from './brackets.ts';

// When is a job likely done? Polls are timed from durations learned per class of job (kind, quality and
// shots, or resolution and length, on the sandbox or a service), so that few polls find a job unfinished.
// The sandbox's classes are its own (`sandbox:shoot:standard:1`): its jobs run faster than real time, and
// what they take teaches nothing about a service.
//
// A poll only brackets a completion: it happened after the last poll that saw the job running and no later
// than the poll that saw it done. The brackets are kept as they are and estimated together (`brackets.ts`).

/** Recent samples only: a service's speed drifts over a day, and estimates should follow it quickly. */
const MAX_SAMPLES = 24;
/** Until a class has this many samples of its own, samples of its kind (shoot or video) stand in. */
const OWN_SAMPLES = 3;
/** With nothing known, probe: a first poll early, then each one 1.6 times later than the last. */
const PROBE_GROWTH = 1.6;

const SANDBOX_PREFIX = 'sandbox:';

/**
 * The class a job's duration is learned in: `shoot:<quality>:<shots>` or `video:<resolution>:<duration>`,
 * prefixed `sandbox:` for a job of the sandbox.
 */
export function durationClass(job: Pick<Job, 'kind' | 'settings'>, sandbox: boolean): string {
  let jobClass: string;
  if (job.kind === 'shoot') {
    const settings = job.settings as ShootSettings;
    jobClass = `shoot:${settings.quality}:${settings.shots}`;
  } else {
    const settings = job.settings as VideoSettings;
    jobClass = `video:${settings.resolution}:${settings.duration}`;
  }
  return sandbox ? `${SANDBOX_PREFIX}${jobClass}` : jobClass;
}

/** The kind of job a class is of, on its service (`shoot`, `sandbox:video`): its classes help each other. */
export function durationKind(jobClass: string): string {
  return jobClass.split(':').slice(0, -2).join(':');
}

/**
 * What to expect before anything is learned, from the description's own words: shoots "typically complete
 * in well under a minute", videos take "several minutes". Probing starts at an eighth of it: a few early
 * polls of the first job of a kind cost little, a first poll that comes late would teach a wrong duration.
 */
function priorSeconds(jobClass: string): number {
  return durationKind(jobClass).endsWith('shoot') ? 30 : 180;
}

/**
 * Milliseconds after acceptance at which a job is done with probability `quantile`, given that it was still
 * running `elapsedMs` after acceptance, from the durations known of its class (`knownMs`). With nothing
 * known, a probe; past every known duration, a back-off in proportion to the time already waited. Pure, so
 * that an ETA (queue/eta.ts) plays the polls forward as the planner makes them.
 */
export function aimPollMs(
  knownMs: readonly number[],
  priorMs: number,
  elapsedMs: number,
  quantile: number,
): number {
  if (knownMs.length === 0) return Math.max(priorMs / 8, elapsedMs * PROBE_GROWTH);
  const longer = knownMs.filter((ms) => ms > elapsedMs).sort((a, b) => a - b);
  if (longer.length === 0) return elapsedMs + Math.max(medianOf(knownMs) * 0.25, elapsedMs * 0.25);
  return longer[Math.min(longer.length - 1, Math.floor(quantile * longer.length))]!;
}

/**
 * Once a job has outlasted its class's typical duration, a budget with room to spare looks at it this share
 * of the typical apart. The even odds of what is left jump far when few durations are longer (half way to
 * the one 3 times the typical), and a job done a moment after a poll waited there for the next: at the end
 * of a batch, with the budget idle, that wait was most of its last minutes (bench:eta).
 */
const EARLY_LOOK_GAP = 0.1;

/**
 * Milliseconds after acceptance for an early look at a job still running `elapsedMs` after it, when the
 * budget has room to spare: when it is done with even odds, and once past its typical duration, at most
 * EARLY_LOOK_GAP of the typical after the last look. Pure, for the planner and an ETA alike.
 */
export function earlyLookMs(knownMs: readonly number[], priorMs: number, elapsedMs: number): number {
  const evenOdds = aimPollMs(knownMs, priorMs, elapsedMs, 0.5);
  const typical = knownMs.length === 0 ? priorMs : medianOf(knownMs);
  return Math.min(evenOdds, Math.max(typical, elapsedMs + EARLY_LOOK_GAP * typical));
}

/** The upper median of durations (not empty). */
function medianOf(durations: readonly number[]): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A row of `duration_samples`: `seconds` is when a poll found the job done, `lo_seconds` the last poll that found it running. */
interface SampleRow {
  seconds: number;
  lo_seconds: number | null;
}

/** The bracket a row says; a row learned before brackets were kept (no `lo_seconds`) is exact. */
const bracketOf = (row: SampleRow): Bracket =>
  row.lo_seconds === null
    ? exactly(row.seconds * 1000)
    : { loMs: row.lo_seconds * 1000, hiMs: row.seconds * 1000 };

/** How many estimates are remembered (`estimated`): a few classes, each asked by polls and by ETAs. */
const REMEMBERED_ESTIMATES = 64;
const remembered = new Map<string, number[]>();

/**
 * What the brackets say (`durationsOf`), remembered by the brackets themselves: an ETA is worked out at every
 * progress event from a model made for it, and the brackets change only when a job is done.
 */
function estimated(brackets: readonly Bracket[]): number[] {
  const key = brackets.map(({ loMs, hiMs }) => `${loMs}:${hiMs}`).join(' ');
  const known = remembered.get(key);
  if (known) return known;
  const durations = durationsOf(brackets);
  if (remembered.size >= REMEMBERED_ESTIMATES) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, durations);
  return durations;
}

export class DurationModel {
  private readonly samples = new Map<string, Bracket[]>();
  /** Per class, the durations its brackets say (`durationsOf`), until the next one is learned. */
  private readonly estimates = new Map<string, number[]>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    /** Multiplies the priors of the sandbox's classes: its time runs faster than real time. */
    private readonly sandboxScale = 1,
  ) {
    const rows = db
      .prepare('SELECT class, seconds, lo_seconds FROM duration_samples ORDER BY at DESC LIMIT 2000')
      .all() as Array<SampleRow & { class: string }>;
    for (const row of rows.reverse()) this.push(row.class, bracketOf(row));
  }

  private push(jobClass: string, bracket: Bracket): void {
    const list = this.samples.get(jobClass) ?? [];
    list.push(bracket);
    if (list.length > MAX_SAMPLES) list.shift();
    this.samples.set(jobClass, list);
    this.estimates.clear();
  }

  /** Learns from a poll that found the job done `hiMs` after acceptance, the previous one `loMs` (or null). */
  learn(jobClass: string, loMs: number | null, hiMs: number): void {
    const bracket = { loMs: Math.min(loMs ?? 0, hiMs), hiMs };
    this.push(jobClass, bracket);
    this.db
      .prepare('INSERT INTO duration_samples (class, seconds, lo_seconds, at) VALUES (?, ?, ?, ?)')
      .run(jobClass, bracket.hiMs / 1000, bracket.loMs / 1000, this.now());
  }

  /** Durations known for the class in ms, helped by its kind's until it has enough of its own; may be empty. */
  private known(jobClass: string): number[] {
    const cached = this.estimates.get(jobClass);
    if (cached) return cached;
    const learned = this.samples.get(jobClass) ?? [];
    const kind = durationKind(jobClass);
    const brackets =
      learned.length >= OWN_SAMPLES
        ? learned
        : [
            ...learned,
            ...[...this.samples.entries()]
              .filter(([name]) => name !== jobClass && durationKind(name) === kind)
              .flatMap(([, list]) => list),
          ];
    const estimate = estimated(brackets);
    this.estimates.set(jobClass, estimate);
    return estimate;
  }

  /** True once something is known of the class (or its kind), so polls can be aimed rather than probed. */
  knows(jobClass: string): boolean {
    return this.known(jobClass).length > 0;
  }

  /**
   * Milliseconds after acceptance at which the job is done with probability `quantile`, given that it was
   * still running `elapsedMs` after acceptance (`aimPollMs`).
   */
  pollAfterMs(jobClass: string, elapsedMs: number, quantile: number): number {
    return aimPollMs(this.knownMs(jobClass), this.priorMs(jobClass), elapsedMs, quantile);
  }

  /** When an early look at a job of the class, still running `elapsedMs` after acceptance, is worth it (`earlyLookMs`). */
  earlyLookMs(jobClass: string, elapsedMs: number): number {
    return earlyLookMs(this.knownMs(jobClass), this.priorMs(jobClass), elapsedMs);
  }

  /** The durations known for the class (helped by its kind's, as polls are), in ms: what an ETA draws from. */
  knownMs(jobClass: string): number[] {
    return this.known(jobClass);
  }

  /**
   * The durations the class learned from `since` on, in ms, however many: what a batch begun then learned of
   * its own jobs (queue/eta.ts draws from them; the recent 24 are the quickest of a batch half done).
   */
  learnedSinceMs(jobClass: string, since: number): number[] {
    const rows = this.db
      .prepare('SELECT seconds, lo_seconds FROM duration_samples WHERE class = ? AND at >= ?')
      .all(jobClass, since) as SampleRow[];
    return estimated(rows.map(bracketOf));
  }

  /**
   * The durations the class learned before `before`, in ms, from the `limit` most recent: what earlier
   * batches taught of its spread (queue/eta.ts), more of it than the recent samples polls are aimed from.
   */
  learnedBeforeMs(jobClass: string, before: number, limit: number): number[] {
    const rows = this.db
      .prepare(
        'SELECT seconds, lo_seconds FROM duration_samples WHERE class = ? AND at < ? ORDER BY at DESC LIMIT ?',
      )
      .all(jobClass, before, limit) as SampleRow[];
    return estimated(rows.map(bracketOf));
  }

  /** The median known duration (the prior when nothing is known), for ETAs and deadlines. */
  typicalMs(jobClass: string): number {
    const known = this.known(jobClass);
    return known.length === 0 ? this.priorMs(jobClass) : medianOf(known);
  }

  /** What the class is guessed to take before anything is learned, in its service's time. */
  priorMs(jobClass: string): number {
    const scale = jobClass.startsWith(SANDBOX_PREFIX) ? this.sandboxScale : 1;
    return priorSeconds(jobClass) * scale * 1000;
  }
}
