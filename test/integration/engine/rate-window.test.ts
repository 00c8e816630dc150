import { describe, expect, it } from 'vitest';
import { apiKeyId, ServiceClient } from '../../../src-main/core/api/index.ts';
import { addFault, engineHarnessForFile } from '../../support/engine-harness.ts';

// Guarantee 3 when the service counts requests late: a busy server (or a slow network) reads some requests
// long after they left. A budget that counts a request from when it left, widened by a fixed slack, lets a
// request leave one window after another that the service counted later than the slack: both land in one
// window of the service, and the one that fills it is refused. Counting each request from its answer (the
// service counted it before answering) leaves no such gap, whatever the delay.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '60/3s' });

describe('a service that counts requests late', () => {
  it('never answers 429 within the budget when the opening burst is read 600 ms late', async () => {
    // The budget lets half the window's allowance (30) leave at once; the service reads all of them 600 ms
    // later, more than twice the slack a send-time budget allows on a 3 s window (250 ms). One window after
    // the burst left, a send-time budget sends again while the burst still counts at the service.
    await addFault(h.sandbox, { path: '/v1/', action: 'delay', delay_ms: 600, times: 30 });
    const batch = await h.createBatch({ products: 10 });
    const engine = h.engine([batch.id], { sandboxTimeScale: 0.02 });
    const keyId = apiKeyId(h.apiKey);
    const client = new ServiceClient({ baseUrl: h.sandbox.url, apiKey: h.apiKey });
    // Balance checks beside the batch, many at once, keep the key's budget full: the batch and the checks
    // share every window, for at least three windows.
    let batchDone = false;
    let checks = 0;
    const run = engine.run().finally(() => {
      batchDone = true;
    });
    const checker = async () => {
      while (!batchDone || checks < 150) {
        checks++;
        await engine.request(keyId, () => client.getCredits());
      }
    };
    await Promise.all([run, ...Array.from({ length: 40 }, checker)]);

    const jobs = h.store.jobs.ofBatch(batch.id);
    expect(jobs.map((job) => job.state)).toEqual(jobs.map(() => 'done'));
    const log = h.sandbox.requests().filter((entry) => entry.path.startsWith('/v1/'));
    expect(log.length).toBeGreaterThanOrEqual(170);
    expect(log.filter((entry) => entry.fault === 'delay')).toHaveLength(30);
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
  }, 120_000);
});
