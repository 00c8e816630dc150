import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src-main/core/queue/batch-totals.ts';
import { decisionsFor, recheckJob } from '../../../src-main/core/queue/decisions.ts';
import { viewStatus } from '../../../src-main/core/queue/states.ts';
import { jobWords } from '../../../src-main/shared/words.ts';
import { addFault, engineHarnessForFile } from '../../support/engine-harness.ts';

// A job the service accepted, and charged, whose polls then answer 404 ("not found"), or "completed" with no
// result to download: a read before the write reached every replica, a proxy's blip, or a service that lost
// it. Adbatch cannot tell which, so the charge is in doubt: the job stops being polled and waits for the
// user, the batch "needs you", and the first decision offered is the free one (check again); never `failed`
// with the charge kept and only a retry that pays again offered.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '600/6s' });

async function clearFaults(): Promise<void> {
  await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
}

describe('a job the service says it does not know', () => {
  it('is not given up on a passing 404: polled again, it completes', async () => {
    await addFault(h.sandbox, {
      method: 'GET',
      path: '/v1/shoots/',
      action: 'status',
      status: 404,
      times: 3,
    });
    const batch = await h.createBatch({ products: 1 });
    await h.run([batch.id]);
    const [shoot] = h.store.jobs.ofBatch(batch.id);
    expect(h.sandbox.requests().filter((entry) => entry.status === 404)).toHaveLength(3);
    expect(shoot!.state, shoot!.failureMessage ?? '').toBe('done');
    await clearFaults();
  }, 60_000);

  it('waits for the user when it keeps saying so, its charge in doubt, checking again (free) offered first', async () => {
    await addFault(h.sandbox, { method: 'GET', path: '/v1/shoots/', action: 'status', status: 404 });
    const batch = await h.createBatch({ products: 1 });
    await h.run([batch.id]);
    const [shoot] = h.store.jobs.ofBatch(batch.id);
    expect(shoot).toMatchObject({ state: 'stale', failureCode: 'not_found', creditsCharged: shoot!.price });
    expect(shoot!.failureMessage).toMatch(/accepted this shoot and charged .* does not know it \(HTTP 404/);
    expect(jobWords(shoot!)).toBe('unknown to the service');
    // What cannot pay twice comes first and alone.
    expect(decisionsFor(shoot!, false)).toEqual(['recheck']);
    expect(viewStatus(h.store.batches.get(batch.id)!.status, 1)).toBe('needs_you');
    expect(totalsOf(h.store.db, batch.id)).toMatchObject({ inDoubt: shoot!.price, staleOnAnswers: 1 });

    // Checked again, the service still does not know it: a retry, paying again, is now offered beside.
    recheckJob(h.store, shoot!.id, Date.now());
    await h.run([batch.id]);
    const again = h.store.jobs.get(shoot!.id)!;
    expect(again).toMatchObject({ state: 'stale', failureCode: 'not_found_again', posts: 1 });
    expect(again.failureMessage).toMatch(/checked again: .* a retry makes it again and pays again/);
    expect(decisionsFor(again, false)).toEqual(['recheck', 'retry']);

    // Once the service knows it again, checking again follows it to its end, never sent twice.
    await clearFaults();
    recheckJob(h.store, shoot!.id, Date.now());
    await h.run([batch.id]);
    expect(h.store.jobs.get(shoot!.id)).toMatchObject({ state: 'done', posts: 1 });
    expect(totalsOf(h.store.db, batch.id).inDoubt).toBe(0);
  }, 60_000);

  it('a completion without a result to download is asked again, then waits for the user, never failed', async () => {
    await addFault(h.sandbox, { method: 'GET', path: '/v1/shoots/', action: 'no_results' });
    const batch = await h.createBatch({ products: 1 });
    await h.run([batch.id]);
    const [shoot] = h.store.jobs.ofBatch(batch.id);
    expect(shoot).toMatchObject({
      state: 'stale',
      failureCode: 'no_results',
      remoteStatus: 'completed',
      creditsCharged: shoot!.price,
    });
    expect(shoot!.failureMessage).toMatch(/completed it without a result to download .*5 polls in a row/);
    expect(jobWords(shoot!)).toBe('done, but no results given');
    expect(decisionsFor(shoot!, false)).toEqual(['recheck']);
    expect(totalsOf(h.store.db, batch.id).inDoubt).toBe(shoot!.price);

    // Its results show at last: checked again, it is downloaded, never sent twice.
    await clearFaults();
    recheckJob(h.store, shoot!.id, Date.now());
    await h.run([batch.id]);
    expect(h.store.jobs.get(shoot!.id)).toMatchObject({ state: 'done', posts: 1 });
  }, 60_000);
});
