// How the sandbox spreads its jobs' durations (`--durations`), so that tests and benches can meet the
// shapes a service shows on a busy day, not only its steady ±20 %:
//   steady            every job at its typical duration, ±20 % (the default)
//   wide              a log-normal spread: half the jobs within 0.7 to 1.4 times the typical, a few at 3 times
//   slow-tail:<s>x<f> a share s of the jobs (0 to 1) takes f times longer than the others (steady)
// The factor applies to a job's generation, the part of it that grows with the work.

export type DurationSpread =
  | { kind: 'steady' }
  | { kind: 'wide' }
  | { kind: 'slow-tail'; share: number; factor: number };

export const STEADY: DurationSpread = { kind: 'steady' };

/** Parses `steady`, `wide` or `slow-tail:<share>x<factor>` (for example `slow-tail:0.1x5`). */
export function parseDurationSpread(text: string): DurationSpread {
  const spec = text.trim();
  if (spec === 'steady' || spec === 'wide') return { kind: spec };
  const tail = /^slow-tail:(\d*\.?\d+)x(\d*\.?\d+)$/.exec(spec);
  const share = Number(tail?.[1]);
  const factor = Number(tail?.[2]);
  if (!tail || share > 1 || factor < 1)
    throw new Error(
      `durations "${text}" is not steady, wide or slow-tail:<share>x<factor> (share 0 to 1, factor 1 or more)`,
    );
  return { kind: 'slow-tail', share, factor };
}

/** What one job's generation is multiplied by, drawn with `random` (uniform in [0, 1)). */
export function durationFactor(spread: DurationSpread, random: () => number): number {
  if (spread.kind === 'steady') return 1;
  if (spread.kind === 'slow-tail') return random() < spread.share ? spread.factor : 1;
  // Box-Muller: a normal draw, as a log-normal factor of median 1 and sigma 0.5.
  const u = Math.max(Number.MIN_VALUE, random());
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.exp(0.5 * normal);
}
