import { z } from 'zod';

// Result URLs that stop answering, for tests (POST /_sandbox/results/expire): the contract promises no
// lifetime for result URLs, so a client must cope with one that answers 404 or 410 some day. Every result
// of a job completed by then (or of the jobs named) answers `status` from then on; results completed later
// are served as usual. DELETE serves them all again; a reset forgets it too. With `renew`, the jobs' results
// move to new addresses, which their GET gives from then on (as a CDN's signed URLs renewed): the old ones
// answer `status`, the new ones serve the same files.

export const expireSchema = z
  .object({
    status: z.union([z.literal(404), z.literal(410)]).default(410),
    job_ids: z.array(z.string().min(1)).optional(),
    renew: z.boolean().default(false),
  })
  .strict();

export class ResultExpiry {
  /** Asset token of an expired job's results -> the status they answer. */
  private readonly expired = new Map<string, 404 | 410>();

  /** Expires these completed jobs' results (`renew`: gives them new addresses); returns how many jobs. */
  expire(
    jobs: ReadonlyArray<{ id: string; assetToken: string }>,
    input: unknown,
    renew: (job: { id: string; assetToken: string }) => void,
  ): { jobs: number; status: 404 | 410 } {
    const { status, job_ids: jobIds, renew: renewing } = expireSchema.parse(input ?? {});
    let count = 0;
    for (const job of jobs) {
      if (jobIds && !jobIds.includes(job.id)) continue;
      this.expired.set(job.assetToken, status);
      if (renewing) renew(job);
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
