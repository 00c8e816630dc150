// Durations drawn from a seeded generator, for tests of estimators: the same seed gives the same
// durations, so a failure printed with its seed can be replayed.

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` durations of a log-normal of median `medianMs` and log spread `sigma` (Box-Muller). */
export function seededLogNormal(seed: number, count: number, medianMs: number, sigma: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const normal =
      Math.sqrt(-2 * Math.log(Math.max(Number.MIN_VALUE, random()))) * Math.cos(2 * Math.PI * random());
    return medianMs * Math.exp(sigma * normal);
  });
}
