// Durations from what polls saw. A poll never sees a job end: it finds it done some time after the last poll
// that found it running. So each job teaches a bracket, `loMs < duration <= hiMs` (lo 0 when the first poll
// already found it done), and the durations are estimated from the brackets together: a density over
// log-spaced bins, fitted by EM with a light smoothing between rounds (Silverman's EMS). A wide bracket
// takes its shape from the narrow ones it holds, so the spread is kept; the smoothing keeps the estimate
// from piling onto a few values, as the unsmoothed estimate (Turnbull's) does when brackets are coarse: in
// bench:eta it said every video took 17.6 s, and every poll was aimed there.
//
// What it replaced: each bracket as one point, its middle, or its end shaded to 0.85 when it had no lower
// end. Middles squeeze the spread (a job seen running at 9 s and done by 30 s is not 19.5 s), and while the
// budget was busy, big batches learned durations twice the true ones (bench:eta, 100 products, wide) and
// saw videos done 10 to 16 s late.

/** What one job's polls saw: done after `loMs` (0: no poll found it running) and by `hiMs`. */
export interface Bracket {
  loMs: number;
  hiMs: number;
}

/** A bracket narrower than this is an exact duration (the durations learned before brackets were kept). */
const EXACT_MS = 1e-6;
/** Bins of the density, log-spaced: each some 8 % wider than the last over a range of 50 times. */
const BINS = 48;
/**
 * GUESS: a job done by a poll with no earlier one is taken to have taken no less than this share of the
 * earliest such poll, as the bins' lowest edge. A quarter: what the old rule's shading (0.85) did in a few
 * rounds, and no lower, so polls aimed from it come down towards the truth without a burst of early ones.
 */
const LOWEST_SHARE = 0.25;
/**
 * EM rounds, all of them: EM creeps, and stopping once a round moved little changed where polls were aimed
 * (the 90th percentile by a third in a unit test). Some 2 ms for a class's 24 brackets, 7 for 120.
 */
const ROUNDS = 200;

/** True for a bracket of an exact duration (`exactly`, whatever the rounding of its lower end). */
const isExact = (loMs: number, hiMs: number) => hiMs - loMs <= 2 * EXACT_MS;

/** A bracket exactly known at `ms`: the rows learned before brackets were kept (migration 022). */
export const exactly = (ms: number): Bracket => ({ loMs: ms - EXACT_MS, hiMs: ms });

/**
 * The durations the brackets say, as many as there are brackets, in ms, ascending: the estimate's quantiles
 * at (k + 0.5) / n. Every consumer of learned durations (poll aims, typical durations, an ETA) takes them
 * as samples. Brackets that are all exact give their durations back as they are.
 */
export function durationsOf(brackets: readonly Bracket[]): number[] {
  if (brackets.every(({ loMs, hiMs }) => isExact(loMs, hiMs))) {
    return brackets.map(({ hiMs }) => hiMs).sort((a, b) => a - b);
  }
  const edges = binEdges(brackets);
  const mass = smoothedEm(brackets, edges);
  const points: number[] = [];
  let bin = 0;
  let below = 0;
  for (let k = 0; k < brackets.length; k++) {
    const wanted = (k + 0.5) / brackets.length;
    while (bin < BINS - 1 && below + mass[bin]! < wanted) below += mass[bin++]!;
    const within = mass[bin]! > 0 ? Math.min(1, (wanted - below) / mass[bin]!) : 0.5;
    points.push(edges[bin]! + within * (edges[bin + 1]! - edges[bin]!));
  }
  return points;
}

/** BINS + 1 log-spaced edges, from LOWEST_SHARE of the lowest known bound to the longest "done by". */
function binEdges(brackets: readonly Bracket[]): number[] {
  const lowest = Math.min(...brackets.map(({ loMs, hiMs }) => (loMs > 0 ? loMs : hiMs * LOWEST_SHARE)));
  const from = Math.max(1, Math.min(lowest, ...brackets.map(({ hiMs }) => hiMs * LOWEST_SHARE)));
  const to = Math.max(...brackets.map(({ hiMs }) => hiMs)) * 1.001;
  return Array.from({ length: BINS + 1 }, (_, index) => from * (to / from) ** (index / BINS));
}

/**
 * Each bracket's weight on each bin: the share of the bin it covers (an exact duration: its bin, whole).
 * EM shares each bracket among its bins in proportion to their mass; after each round the mass is smoothed
 * with its neighbours (1/4, 1/2, 1/4).
 */
function smoothedEm(brackets: readonly Bracket[], edges: readonly number[]): number[] {
  const weights = brackets.map(({ loMs, hiMs }) =>
    Array.from({ length: BINS }, (_, bin) => {
      const [from, to] = [edges[bin]!, edges[bin + 1]!];
      if (isExact(loMs, hiMs)) return hiMs > from && hiMs <= to ? 1 : 0;
      return Math.max(0, Math.min(hiMs, to) - Math.max(loMs, from)) / (to - from);
    }),
  );
  let mass = new Array<number>(BINS).fill(1 / BINS);
  for (let round = 0; round < ROUNDS; round++) {
    const next = new Array<number>(BINS).fill(0);
    for (const weight of weights) {
      let total = 0;
      for (let bin = 0; bin < BINS; bin++) total += weight[bin]! * mass[bin]!;
      if (total <= 0) continue;
      for (let bin = 0; bin < BINS; bin++) next[bin]! += (weight[bin]! * mass[bin]!) / total;
    }
    const smoothed = next.map(
      (value, bin) => 0.25 * (next[bin - 1] ?? value) + 0.5 * value + 0.25 * (next[bin + 1] ?? value),
    );
    const sum = smoothed.reduce((a, b) => a + b, 0);
    mass = smoothed.map((value) => value / sum);
  }
  return mass;
}
