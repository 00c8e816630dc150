import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// How big a bench runs and where it writes its figures. BENCH_SHORT=1 runs it on tiny inputs, in seconds,
// as the test suite does (test/bench/benches.test.ts) so that no bench can rot unseen: its figures then
// mean nothing and its targets are not judged. BENCH_RESULTS_DIR writes the figures elsewhere than
// bench/results (a temp folder, in the tests).

export const SHORT = process.env.BENCH_SHORT === '1';

/** A size: the environment variable's when it is set, else the short run's or the full run's. */
export function benchSize(variable: string, full: number, short: number): number {
  const given = process.env[variable];
  const size = given === undefined ? (SHORT ? short : full) : Number(given);
  if (!Number.isFinite(size) || size <= 0)
    throw new Error(`${variable} must be a positive number, not "${given}"`);
  return size;
}

/** Writes the figures as `<name>.json`, saying whether the run was short; the file written. */
export async function writeResults(name: string, figures: object): Promise<string> {
  const dir = process.env.BENCH_RESULTS_DIR ?? join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  await writeFile(file, `${JSON.stringify({ short: SHORT, ...figures }, null, 2)}\n`);
  return file;
}
