import { mulberry32 } from '../../shared/seeded-random.ts';

/** A small seeded generator: the same job id must render the same pixels, so Math.random is never used. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer in [0, count). */
  int(count: number): number;
  pick<T>(items: readonly T[]): T;
}

/** FNV-1a: spreads similar seeds ("job_1:0", "job_1:1") far apart. */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32 (shared/seeded-random.ts) on a string's hash: tiny, fast and good enough for layout jitter. */
export function seededRandom(seed: string): Random {
  const next = mulberry32(hashSeed(seed));
  const int = (count: number): number => Math.floor(next() * count);
  return {
    next,
    range: (min, max) => min + next() * (max - min),
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)]!;
    },
  };
}
