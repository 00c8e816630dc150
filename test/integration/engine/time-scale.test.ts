import { describe, expect, it } from 'vitest';
import { addFault, engineHarnessForFile } from '../../support/engine-harness.ts';

// The sandbox runs faster than real time; the service does not. An engine set for a fast sandbox (the app
// runs its sandbox ten times faster) drives a batch of a real service account in real time: its duration
// priors, its retry delays and its 10-minute deadline floor are the service's own, and what the sandbox
// taught about durations teaches nothing about the service.

const SANDBOX_TIME_SCALE = 0.02;
const h = engineHarnessForFile({ timeScale: SANDBOX_TIME_SCALE, rateLimit: '60/3s' });

describe('an engine set for a fast sandbox', () => {
  it('drives a batch of the real service in real time, and keeps what each taught apart', async () => {
    // The sandbox's batch goes first: its shoots take a fraction of a second, and the engine learns it.
    const fast = await h.createBatch({ products: 2 });
    await h.run([fast.id], { sandboxTimeScale: SANDBOX_TIME_SCALE });
    const sandboxJobs = h.store.jobs.ofBatch(fast.id);
    expect(sandboxJobs.map((job) => job.state)).toEqual(['done', 'done']);
    for (const job of sandboxJobs) expect(job.deadlineAt! - job.acceptedAt!).toBeLessThan(60_000);

    // A shoot of the real service, whose first poll meets a 503.
    await addFault(h.sandbox, {
      method: 'GET',
      path: '/v1/shoots/',
      action: 'status',
      status: 503,
      times: 1,
    });
    const real = await h.createBatch({ products: 1, sandbox: false });
    await h.run([real.id], { sandboxTimeScale: SANDBOX_TIME_SCALE });
    const [job] = h.store.jobs.ofBatch(real.id);
    expect(job!.state).toBe('done');
    // The deadline of the real service: ten times its prior of 30 s, at least 10 minutes (from the answer
    // to the create, read a moment before the job was recorded accepted).
    expect(job!.deadlineAt! - job!.acceptedAt!).toBeGreaterThan(600_000 - 50);
    expect(job!.deadlineAt! - job!.acceptedAt!).toBeLessThanOrEqual(600_000);
    const polls = h.sandbox
      .requests()
      .filter((entry) => entry.method === 'GET' && entry.path === `/v1/shoots/${job!.remoteId}`)
      .map((entry) => ({ at: Date.parse(entry.at), fault: entry.fault }));
    expect(polls[0]!.fault).toBe('status');
    expect(polls[1]!.fault).toBeUndefined();
    // Nothing known of the real service's shoots: the first poll probes at an eighth of the prior (30 s),
    // not at the durations the sandbox taught.
    expect(polls[0]!.at - job!.acceptedAt!).toBeGreaterThanOrEqual(3_750 - 5);
    // The failed poll was retried after the real backoff of a second, not a fiftieth of it.
    expect(polls[1]!.at - polls[0]!.at).toBeGreaterThanOrEqual(1_000 - 5);

    const classes = h.store.db
      .prepare('SELECT DISTINCT class FROM duration_samples ORDER BY class')
      .all() as Array<{ class: string }>;
    // What the real service's shoot taught is its own class; the sandbox's shoots teach only under the
    // sandbox's, never mixed in. (Every poll that finds a job done teaches, however late the budget or a
    // loaded machine sent it: the sandbox's class is there too.)
    expect(classes.map((row) => row.class)).toEqual(['sandbox:shoot:standard:1', 'shoot:standard:1']);
  }, 60_000);
});
