// What a result cost: its job's net charge shared among the job's results in whole credits, so that the
// shares of a job's results add up to the job's charge exactly (10 credits over 3 shots: 4, 3, 3, never
// 3.33 three times). The first results (in the job's order) take the remainder. The manifest states each
// result's share once, on its first row: its column then sums to what the exported results cost.

/** `net` split over `count` results, in whole credits, the remainder to the first. */
export function creditShares(net: number, count: number): number[] {
  const base = Math.floor(net / count);
  const remainder = net - base * count;
  return Array.from({ length: count }, (_, rank) => base + (rank < remainder ? 1 : 0));
}
