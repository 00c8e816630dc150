import { describe, expect, it } from 'vitest';
import { engineHarnessForFile, unfinished } from '../../support/engine-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';

// Until a kind's first duration is learned, every job of that kind waits at the prior: the two probes of
// a kind must not wait behind a budget full of creates (they did, and the first video duration was then
// learned from a poll a minute late, five times too long, which made the end of every batch wait).

// At x0.05 rather than faster: the jobs' deadlines are scaled, the sandbox's rendering of 100 jobs is not
// (at x0.02 a loaded machine's shoots outlasted a 12 s deadline).
const h = engineHarnessForFile({ timeScale: 0.05, rateLimit: '60/6s' });

describe('probes of a kind with nothing known', () => {
  it('go before the creates that keep the budget full', async () => {
    const batch = await h.createBatch({
      products: 50,
      video: QUICK_VIDEO,
    });
    await h.run([batch.id], { sandboxTimeScale: 0.05 });
    expect(unfinished(h.store.jobs.ofBatch(batch.id))).toEqual([]);
    const log = h.sandbox.requests().filter((entry) => entry.path.startsWith('/v1/'));
    const firstVideoPoll = log.findIndex(
      (entry) => entry.method === 'GET' && entry.path.startsWith('/v1/videos/'),
    );
    const lastShootCreate = log.findLastIndex(
      (entry) => entry.method === 'POST' && entry.path === '/v1/shoots',
    );
    expect(firstVideoPoll).toBeGreaterThan(0);
    expect(firstVideoPoll).toBeLessThan(lastShootCreate);
    // The probes were on time, so the first video duration was learned from them, close to the truth: within
    // twice the longest real one (a probe behind the creates learned it five times too long; on a loaded
    // machine a probe's poll that waits for its slot in the budget learned it 1.57 times, CI).
    const videoSamples = h.store.db
      .prepare("SELECT seconds FROM duration_samples WHERE class LIKE 'sandbox:video:%' ORDER BY at LIMIT 1")
      .all() as Array<{ seconds: number }>;
    const real = h.sandbox
      .jobs()
      .filter((job) => job.kind === 'video')
      .map((job) => (Date.parse(job.history.at(-1)!.at) - Date.parse(job.history[0]!.at)) / 1000);
    expect(videoSamples[0]!.seconds).toBeLessThan(2 * Math.max(...real));
  }, 120_000);
});
