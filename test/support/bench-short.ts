import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { collected } from './cli.ts';

// A bench's short run (BENCH_SHORT=1, bench/settings.ts) as `npm run bench:<name>` runs it, its figures
// written to a temp folder rather than bench/results: it must run to its end and write them. Its timings
// are not judged (a loaded machine makes any figure), only that nothing in it crashed. Each bench under
// plain Node has a file of its own in test/bench/core, so that they run side by side: in one file they took
// 104 to 122 s one after the other, and a file that small was started among the last.

const ROOT = resolve(import.meta.dirname, '../..');

export async function runShortBench(name: string): Promise<Record<string, unknown>> {
  const results = await mkdtemp(join(tmpdir(), `adbatch-bench-${name}-`));
  try {
    const run = await collected(process.execPath, ['--import', 'tsx', join('bench', `${name}.ts`)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SHORT: '1', BENCH_RESULTS_DIR: results },
    });
    expect(run.code, `bench:${name} exited ${run.code}:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const figures = JSON.parse(await readFile(join(results, `${name}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(figures.short).toBe(true);
    return figures;
  } finally {
    await rm(results, { recursive: true, force: true });
  }
}
