import { mulberry32 } from '../src-main/shared/seeded-random.ts';

// The least error any ETA could have on a spread (bench:eta prints it beside each point): batches of the
// bench's shape are played from the sandbox's own durations, and at each point the remaining time is
// estimated knowing everything but the future: the spread itself, which jobs are done, and how long each
// running job has run, to the millisecond (no poll stands between a job's end and its being seen). The
// estimate is the time left that makes the mean of |estimate - actual| / actual least over the futures
// that could follow (a median weighed by 1 / time left), which is the best any estimator can say for
// that measure. What it still misses is the luck of the jobs still running (which of them is slow): no
// estimator can know it, and a target below this floor cannot be met on average.
//
// The batch as the bench runs it, simplified only where that makes the floor lower: shoots leave at the
// budget's pace (`spacingMs` apart), each video as soon as its shoot is done.

/** Futures played for each estimate. */
const FUTURES = 400;

interface Job {
  /** When it leaves, in ms; a video's is its shoot's end. */
  sentAt: number;
  duration: number;
}

/** One batch's shoots and videos: [shoot, video] per product, their durations drawn from the spread. */
function batchOf(
  durations: Record<'shoot' | 'video', number[]>,
  products: number,
  spacingMs: number,
  random: () => number,
) {
  const draw = (list: number[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: products }, (_, index) => {
    const shoot: Job = { sentAt: index * spacingMs, duration: draw(durations.shoot) };
    const video: Job = { sentAt: shoot.sentAt + shoot.duration, duration: draw(durations.video) };
    return [shoot, video] as const;
  });
}

/** A duration longer than `ran`, drawn from the spread's, sorted (a quarter past `ran` when none is longer). */
function longerThan(sorted: readonly number[], ran: number, random: () => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > ran) hi = mid;
    else lo = mid + 1;
  }
  return lo < sorted.length ? sorted[lo + Math.floor(random() * (sorted.length - lo))]! : ran * 1.25;
}

/** The time left that makes the mean relative error over these futures least: their 1/left-weighed median. */
function bestForRelativeError(futures: number[]): number {
  const sorted = futures.filter((left) => left > 0).sort((a, b) => a - b);
  const total = sorted.reduce((sum, left) => sum + 1 / left, 0);
  let seen = 0;
  for (const left of sorted) {
    seen += 1 / left;
    if (seen >= total / 2) return left;
  }
  return sorted.at(-1) ?? 0;
}

/** The floor at one point: its mean over the batches played, and how high a run of a few batches' mean goes. */
export interface ErrorFloor {
  mean: number;
  /** The 90th percentile of the mean over `repeats` batches (what bench:eta averages): one run in ten is above. */
  runOfRepeats90: number;
}

/**
 * The least error at each share of the jobs done, over `batches` played batches: the floor under any ETA's
 * error there, and how far a run of `repeats` batches may stray above it by luck alone.
 */
export function etaErrorFloor(
  spread: Record<'shoot' | 'video', number[]>,
  products: number,
  spacingMs: number,
  shares: readonly number[],
  repeats: number,
  batches: number,
): ErrorFloor[] {
  const random = mulberry32(9);
  const durations = {
    shoot: [...spread.shoot].sort((a, b) => a - b),
    video: [...spread.video].sort((a, b) => a - b),
  };
  const errors: number[][] = shares.map(() => []);
  for (let played = 0; played < batches; played++) {
    const pairs = batchOf(durations, products, spacingMs, random);
    const ends = pairs
      .flat()
      .map((job) => job.sentAt + job.duration)
      .sort((a, b) => a - b);
    const end = ends.at(-1)!;
    shares.forEach((share, point) => {
      // The moment the share's last job ends.
      const now = ends[Math.max(0, Math.ceil(share * ends.length) - 1)]!;
      const futures = Array.from({ length: FUTURES }, () => {
        let last = now;
        for (const [shoot, video] of pairs) {
          const shootEnd = future(shoot, now, durations.shoot, random);
          // A video whose shoot is not done by now leaves when the shoot does in this future; its duration
          // is not known yet (infinite: `future` draws it).
          const videoJob =
            shoot.sentAt + shoot.duration <= now
              ? video
              : { sentAt: shootEnd, duration: Number.POSITIVE_INFINITY };
          last = Math.max(last, shootEnd, future(videoJob, now, durations.video, random));
        }
        return last - now;
      });
      const actual = end - now;
      errors[point]!.push(Math.abs(bestForRelativeError(futures) - actual) / actual);
    });
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const meanOf = (list: readonly number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
  return errors.map((list) => {
    const runs = Array.from({ length: Math.floor(list.length / repeats) }, (_, run) =>
      meanOf(list.slice(run * repeats, (run + 1) * repeats)),
    ).sort((a, b) => a - b);
    return { mean: round(meanOf(list)), runOfRepeats90: round(runs[Math.floor(0.9 * runs.length)]!) };
  });
}

/**
 * When a job ends in one future seen from `now`: as it did if that is known by now, else after a duration
 * drawn from the spread (longer than it has run, if it runs).
 */
function future(job: Job, now: number, list: readonly number[], random: () => number): number {
  if (job.sentAt + job.duration <= now) return job.sentAt + job.duration;
  if (job.sentAt <= now) return job.sentAt + longerThan(list, now - job.sentAt, random);
  return job.sentAt + list[Math.floor(random() * list.length)]!;
}
