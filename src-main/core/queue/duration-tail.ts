// How long the jobs that outlast everything seen so far will take: the tail of a class's durations, beyond
// its longest learned one. Half way through a batch sent at once, half its jobs still run, each past every
// duration its finished half showed: their durations are only known to be longer (censored). Durations of
// generated media are skewed to the right, a few several times the typical (the service promises nothing
// past "several minutes"); a log-normal is the usual shape of such waits, so the tail is that of the
// log-normal fitted to what ended and to what is still running (maximum likelihood, the running ones
// censored at what they outlasted: expectation-maximisation on the logs).

export interface LogNormal {
  /** Mean and spread of the durations' natural logs (ms). */
  mu: number;
  sigma: number;
}

/** The spread is never taken narrower than this: a handful of equal durations are not a certainty. */
const MIN_SIGMA = 0.05;
/**
 * Nor wider than this: one in a hundred jobs ten times the typical. Few that ended and many running would
 * otherwise fit any spread (the likelihood barely cares), and put the batch's end hours away.
 */
const MAX_SIGMA = 1;
/** Fewer durations that ended than this: no shape to fit. */
const MIN_DONE = 5;
const ITERATIONS = 100;

/** The standard normal's cumulative distribution (Abramowitz and Stegun 7.1.26, within 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function normalPdf(z: number): number {
  return Math.exp(-(z * z) / 2) / Math.sqrt(2 * Math.PI);
}

/** The standard normal's quantile, by bisection (a few per estimate: speed does not matter). */
function normalQuantile(p: number): number {
  let lo = -9;
  let hi = 9;
  for (let step = 0; step < 60; step++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** E[z | z > alpha] for a standard normal z (the inverse Mills ratio), stable far in the tail. */
function millsRatio(alpha: number): number {
  const above = 1 - normalCdf(alpha);
  return above > 1e-10 ? normalPdf(alpha) / above : alpha + 1 / alpha;
}

/**
 * The log-normal that best explains durations that ended (`doneMs`) and jobs known to have lasted longer
 * than `censoredMs` (still running); null with fewer than MIN_DONE that ended.
 */
export function fitLogNormal(doneMs: readonly number[], censoredMs: readonly number[]): LogNormal | null {
  const done = doneMs.filter((ms) => ms > 0).map(Math.log);
  // A job not yet seen running by any poll outlasted nothing: it says nothing.
  const censored = censoredMs.filter((ms) => ms > 0).map(Math.log);
  if (done.length < MIN_DONE) return null;
  const n = done.length + censored.length;
  let mu = done.reduce((sum, x) => sum + x, 0) / done.length;
  let sigma = Math.max(MIN_SIGMA, Math.sqrt(done.reduce((sum, x) => sum + (x - mu) ** 2, 0) / done.length));
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    let first = done.reduce((sum, x) => sum + x, 0);
    let second = done.reduce((sum, x) => sum + x * x, 0);
    for (const bound of censored) {
      // A censored log is expected where the normal, cut at its bound, has its mean and spread.
      const alpha = (bound - mu) / sigma;
      const lambda = millsRatio(alpha);
      const mean = mu + sigma * lambda;
      const variance = sigma * sigma * Math.max(0, 1 + alpha * lambda - lambda * lambda);
      first += mean;
      second += variance + mean * mean;
    }
    mu = first / n;
    sigma = Math.min(MAX_SIGMA, Math.max(MIN_SIGMA, Math.sqrt(Math.max(0, second / n - mu * mu))));
  }
  return { mu, sigma };
}

/**
 * `count` durations, in ms, evenly spread over the fitted log-normal's share longer than `aboveMs`: what
 * the jobs that outlast `aboveMs` are drawn from, each as likely as the others.
 */
export function tailDurations(fit: LogNormal, aboveMs: number, count: number): number[] {
  const from = normalCdf((Math.log(aboveMs) - fit.mu) / fit.sigma);
  return Array.from({ length: count }, (_, index) => {
    const p = from + ((index + 0.5) / count) * (1 - from);
    return Math.max(aboveMs, Math.exp(fit.mu + fit.sigma * normalQuantile(p)));
  });
}
