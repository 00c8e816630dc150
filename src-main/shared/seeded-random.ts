// mulberry32: a small seeded generator of numbers in [0, 1), the same on every machine. For what must give
// the same answer for the same facts (an ETA's plays, the sandbox's layouts) and for tests and benches whose
// random inputs are replayed from their printed seed.

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
