import { z } from 'zod';

// Result URLs that stop answering, for tests (POST /_sandbox/results/expire): the contract promises no
// lifetime for result URLs, so a client must cope with one that answers 404 or 410 some day. Every result
// of a job completed by then (or of the jobs named) answers `status` from then on; results completed later
// are served as usual. DELETE serves them all again; a reset forgets it too.

export const expireSchema = z
  .object({
    status: z.union([z.literal(404), z.literal(410)]).default(410),
    job_ids: z.array(z.string().min(1)).optional(),
  })
  .strict();

export class ResultExpiry {
  /** Asset token of an expired job's results -> the status they answer. */
  private readonly expired = new Map<string, 404 | 410>();

  /** Expires these completed jobs' results; returns how many jobs. */
  expire(
    jobs: ReadonlyArray<{ id: string; assetToken: string }>,
    input: unknown,
  ): { jobs: number; status: 404 | 410 } {
    const { status, job_ids: jobIds } = expireSchema.parse(input ?? {});
    let count = 0;
    for (const job of jobs) {
      if (jobIds && !jobIds.includes(job.id)) continue;
      this.expired.set(job.assetToken, status);
      count++;
    }
    return { jobs: count, status };
  }

  /** The status an expired result answers, or null when it is served. */
  statusOf(assetToken: string): 404 | 410 | null {
    return this.expired.get(assetToken) ?? null;
  }

  clear(): void {
    this.expired.clear();
  }
}
