import type { JobView } from '../../../src-main/shared/models.ts';

// What a product's row on the batch page shows of its jobs. An attempt a later job of its kind made good
// (core says so: JobView.superseded) and that left nothing to see or decide is history: folded under the
// success, still there to read. Every other job is a line of its own, its results as tiles.

export interface ProductLines {
  /** The jobs that stand: their states, results and decisions shown in the row. */
  current: JobView[];
  /** Earlier attempts, folded under the success. */
  earlier: JobView[];
}

/** Whether the row folds this job away: made good later, with no result to show and nothing to decide. */
const folded = (job: JobView) => job.superseded && job.results.length === 0 && job.decisions.length === 0;

export function productLines(jobs: readonly JobView[]): ProductLines {
  return { current: jobs.filter((job) => !folded(job)), earlier: jobs.filter(folded) };
}

/**
 * The CSS aspect ratio of a job's results before they load, from the ratio they were asked in ("4:5" as
 * `auto 4 / 5`: a loaded image's own ratio wins); undefined when the service chooses it.
 */
export function tileAspect(ratio: string | null): string | undefined {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio ?? '');
  return match ? `auto ${match[1]} / ${match[2]}` : undefined;
}
