import { describe, expect, it } from 'vitest';
import { acceptedPostsBySource, addFault, engineHarnessForFile } from '../../support/engine-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';
import { verifyDownloads } from '../../support/library-checks.ts';

// A hostile network: 503s, resets, latency spikes and garbage on polls, resets on creates and downloads.
// The batch must complete, nothing may be created twice, and a create whose outcome is unknown is
// reported as such and never sent again.

const PRODUCTS = 15;
const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '600/6s' });

describe('fault test', () => {
  it('completes the batch through 503s, resets, delays and malformed answers without creating anything twice', async () => {
    // The first polls meet each fault for sure, and the first create loses its answer; after that, faults
    // strike at random.
    for (const action of ['status', 'reset', 'malformed']) {
      await addFault(h.sandbox, { method: 'GET', path: '/v1/shoots/', action, status: 503, times: 1 });
    }
    await addFault(h.sandbox, { method: 'POST', path: '/v1/shoots', action: 'reset', times: 1 });
    for (const path of ['/v1/shoots/', '/v1/videos/']) {
      await addFault(h.sandbox, { method: 'GET', path, action: 'status', status: 503, probability: 0.1 });
      await addFault(h.sandbox, { method: 'GET', path, action: 'reset', probability: 0.05 });
      await addFault(h.sandbox, { method: 'GET', path, action: 'delay', delay_ms: 2000, probability: 0.05 });
      await addFault(h.sandbox, { method: 'GET', path, action: 'malformed', probability: 0.05 });
    }
    await addFault(h.sandbox, { method: 'POST', path: '/v1/shoots', action: 'reset', probability: 0.2 });
    await addFault(h.sandbox, { method: 'POST', path: '/v1/videos', action: 'reset', probability: 0.1 });
    await addFault(h.sandbox, { method: 'GET', path: '/cdn/', action: 'reset', probability: 0.1 });

    const batch = await h.createBatch({
      products: PRODUCTS,
      video: QUICK_VIDEO,
    });
    await h.run([batch.id]);

    const jobs = h.store.jobs.ofBatch(batch.id);
    const log = h.sandbox.requests();
    expect(log.some((entry) => entry.fault === 'status')).toBe(true);
    expect(log.some((entry) => entry.fault === 'malformed')).toBe(true);

    // Nothing created twice.
    expect([...acceptedPostsBySource(h.sandbox).values()].filter((count) => count > 1)).toEqual([]);

    // Every POST whose answer was lost is reported as outcome unknown, and was never sent again.
    const lost = log.filter((entry) => entry.method === 'POST' && entry.status === null);
    expect(lost.length).toBeGreaterThan(0);
    const unknown = jobs.filter((job) => job.state === 'outcome_unknown');
    expect(unknown.map((job) => job.failureCode)).toHaveLength(lost.length);
    for (const job of unknown) {
      expect(job.posts).toBe(1);
      expect(job.failureMessage).toBeTruthy();
    }

    // Everything else completed, with every result downloaded and verified despite the resets.
    for (const job of jobs) {
      if (job.state === 'outcome_unknown') continue;
      const shoot = jobs.find((candidate) => candidate.id === job.afterJobId);
      if (job.state === 'skipped') expect(shoot?.state).toBe('outcome_unknown');
      else expect(job.state, `${job.kind} ${job.failureMessage}`).toBe('done');
    }
    expect(await verifyDownloads(h.store, batch.id)).toBe(h.store.assets.ofBatch(batch.id).length);
    expect(h.store.totals(batch.id).atStake).toBe(unknown.reduce((sum, job) => sum + job.price, 0));
  }, 120_000);
});
