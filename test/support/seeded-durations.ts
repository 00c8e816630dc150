// Durations drawn from a seeded generator, for tests of estimators: the same seed gives the same
// durations, so a failure printed with its seed can be replayed.

import { mulberry32 } from '../../src-main/shared/seeded-random.ts';

/** `count` durations of a log-normal of median `medianMs` and log spread `sigma` (Box-Muller). */
export function seededLogNormal(seed: number, count: number, medianMs: number, sigma: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const normal =
      Math.sqrt(-2 * Math.log(Math.max(Number.MIN_VALUE, random()))) * Math.cos(2 * Math.PI * random());
    return medianMs * Math.exp(sigma * normal);
  });
}
