import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobView } from '../../../src-main/core/queue/views.ts';
import { jobStateWords } from '../../../src-main/shared/words.ts';
import { engineHarnessForFile, unfinished } from '../../support/engine-harness.ts';

// Slow is not dead (issue 27, point 4). On the sandbox a job's deadline is in the sandbox's faster time
// (here 10 minutes x0.01 = 6 s) while its work may take real time: a shoot that takes twice that is late,
// "taking longer than usual", still polled, and completes, downloads and finishes its batch. It is given
// up only a span of real time past its deadline (three hours unless told, never scaled down).

const TIME_SCALE = 0.01;
// Every shoot's generation 400 times its usual 0.05 s: 16 to 24 s in all, well past its 6 s deadline.
const h = engineHarnessForFile({
  timeScale: TIME_SCALE,
  rateLimit: '60/1s',
  durations: { kind: 'slow-tail', share: 1, factor: 400 },
});

function pollsOf(remoteId: string): number[] {
  return h.sandbox
    .requests()
    .filter((entry) => entry.method === 'GET' && entry.path === `/v1/shoots/${remoteId}`)
    .map((entry) => Date.parse(entry.at));
}

describe('a job slower than its deadline', () => {
  it('keeps being polled, is shown as taking longer than usual, and completes', async () => {
    const batch = await h.createBatch({ products: 1 });
    const lateWords: string[] = [];
    await h.run([batch.id], {
      onChange: () => {
        const [job] = h.store.jobs.ofBatch(batch.id);
        const view = jobView(job!, [], new Map(), false, Date.now());
        if (view.late) lateWords.push(jobStateWords(view, { paused: false, savingBlocked: false }));
      },
    });
    const [job] = h.store.jobs.ofBatch(batch.id);
    expect(unfinished([job!])).toEqual([]);
    expect(h.store.batches.get(batch.id)!.status).toBe('finished');
    expect(h.store.jobs.events(job!.id).some((event) => event.value === 'stale')).toBe(false);
    // Polled on past its deadline, and seen there as late, not dead.
    expect(pollsOf(job!.remoteId!).filter((at) => at > job!.deadlineAt!).length).toBeGreaterThan(0);
    expect(lateWords.length).toBeGreaterThan(0);
    expect(lateWords[0]).toMatch(/taking longer than usual$/);
    // The last poll that found it running is kept (the ETA's lower bound on its duration): past its deadline.
    expect(job!.lastPolledRunningAt).toBeGreaterThan(job!.deadlineAt!);
    expect(job!.lastPolledRunningAt).toBeLessThan(job!.finishedAt!);
    // Its result was downloaded.
    const [asset] = h.store.assets.ofBatch(batch.id).filter((candidate) => candidate.kind === 'image');
    expect(asset!.state).toBe('done');
    expect(existsSync(join(batch.libraryDir, asset!.path))).toBe(true);
  }, 90_000);

  it('is given up only its give-up span of real time past its deadline, polled until then', async () => {
    // Nothing learned, as before the first test: what it taught (a 12 s shoot) would push the deadline out.
    h.store.db.prepare('DELETE FROM duration_samples').run();
    const batch = await h.createBatch({ products: 1 });
    const giveUpAfterMs = 4000;
    await h.run([batch.id], { giveUpAfterMs });
    const [job] = h.store.jobs.ofBatch(batch.id);
    expect(job!.state).toBe('stale');
    const staleAt = h.store.jobs.events(job!.id).find((event) => event.value === 'stale')!.at;
    expect(staleAt).toBeGreaterThan(job!.deadlineAt! + giveUpAfterMs);
    const polls = pollsOf(job!.remoteId!);
    expect(polls.filter((at) => at > job!.deadlineAt!).length).toBeGreaterThanOrEqual(2);
  }, 90_000);
});
