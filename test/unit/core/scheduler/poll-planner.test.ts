import { describe, expect, it } from 'vitest';
import type { BatchId, JobId, ProductId } from '../../../../src-main/core/queue/ids.ts';
import type { Job } from '../../../../src-main/core/queue/types.ts';
import { durationClass } from '../../../../src-main/core/scheduler/durations.ts';
import { GIVE_UP_AFTER_MS, PollPlanner } from '../../../../src-main/core/scheduler/poll-planner.ts';
import { TimeScales } from '../../../../src-main/core/scheduler/time-scales.ts';
import { databasePerTest } from '../../../support/database-per-test.ts';
import { QUICK_SHOOT } from '../../../support/job-settings.ts';
import { seededLogNormal } from '../../../support/seeded-durations.ts';

// What poll-planner.ts documents, on a real database: every poll that finds a job done teaches its bracket,
// late or not, two jobs at most probe a kind with nothing known and a failed one is replaced, an early
// look never comes before the backoff of a poll that failed, and a job of the sandbox is planned in the
// sandbox's time, apart from the service's.

const T0 = 1_700_000_000_000;
/** The shoot prior: "well under a minute", taken as 30 s; a first probe at an eighth of it. */
const SHOOT_PRIOR = 30_000;

const temp = databasePerTest(T0);
const { clock, now } = temp;

let jobs = 0;
/** A running shoot accepted now, with its first poll planned as the engine does. */
function accepted(planner: PollPlanner, batchId = 'b_1'): Job {
  const job: Job = {
    id: `j_${++jobs}` as JobId,
    batchId: batchId as BatchId,
    productId: `p_${jobs}` as ProductId,
    kind: 'shoot',
    afterJobId: null,
    settings: QUICK_SHOOT,
    request: {},
    price: 1,
    state: 'running',
    remoteId: `shoot_${jobs}`,
    remoteStatus: 'pending',
    creditsCharged: 1,
    creditsRefunded: 0,
    posts: 1,
    polls: 0,
    createdAt: clock.now,
    submittedAt: clock.now,
    acceptedAt: clock.now,
    finishedAt: null,
    nextPollAt: null,
    lastPolledRunningAt: null,
    deadlineAt: null,
    failureCode: null,
    failureMessage: null,
  };
  job.nextPollAt = clock.now + planner.firstPollDelayMs(job);
  return job;
}

describe('PollPlanner', () => {
  it('learns from a poll the budget delayed that finds the job done: its bracket, however wide', () => {
    const planner = new PollPlanner({ db: temp.db, now });
    const late = accepted(planner);
    expect(late.nextPollAt).toBe(T0 + SHOOT_PRIOR / 8);
    // Sent 20 s after its plan: "done by then" is all it says, and it is kept as that. Leaving such polls
    // out let the budget choose what was learned (only the polls of a batch's end, its slowest jobs).
    clock.now = late.nextPollAt! + 20_000;
    expect(planner.completed(late, clock.now - T0)).toBe(true);
    expect(temp.db.prepare('SELECT lo_seconds, seconds FROM duration_samples').all()).toEqual([
      { lo_seconds: 0, seconds: 23.75 },
    ]);
    // The kind is known now: the jobs that waited are aimed.
    expect(planner.aimedPollAt(accepted(planner))).not.toBeNull();
  });

  it('a poll that finds the job running still teaches, however late: the next sample is bracketed', () => {
    const planner = new PollPlanner({ db: temp.db, now });
    const job = accepted(planner);
    clock.now = T0 + 20_000; // late, and still running
    const next = planner.stillRunning(job, 20_000);
    expect(next).toBe(T0 + 32_000); // probing: 1.6 times the time already waited
    clock.now = next;
    expect(planner.completed(job, 32_000)).toBe(true);
    // Done after 20 s and by 32 s: the bracket is kept.
    expect(temp.db.prepare('SELECT lo_seconds, seconds FROM duration_samples').all()).toEqual([
      { lo_seconds: 20, seconds: 32 },
    ]);
  });

  it('lets two jobs probe a kind with nothing known; a failed probe makes room for another', () => {
    const planner = new PollPlanner({ db: temp.db, now });
    const first = accepted(planner);
    const second = accepted(planner);
    const third = accepted(planner);
    expect([first, second].map((job) => job.nextPollAt)).toEqual([
      T0 + SHOOT_PRIOR / 8,
      T0 + SHOOT_PRIOR / 8,
    ]);
    // The others wait for what the probes learn, at the prior.
    expect(third.nextPollAt).toBe(T0 + SHOOT_PRIOR);
    expect(planner.probes()).toEqual([first.id, second.id]);
    // Both probes fail at the service: nothing was learned, and jobs still waiting need a probe.
    planner.forget(first);
    planner.forget(second);
    const fourth = accepted(planner);
    expect(fourth.nextPollAt).toBe(T0 + SHOOT_PRIOR / 8);
    expect(planner.isProbing(fourth)).toBe(true);
  });

  it('never looks early at a job whose last poll failed: it waits for its backoff', () => {
    const planner = new PollPlanner({ db: temp.db, now });
    const teacher = accepted(planner);
    clock.now = teacher.nextPollAt!;
    planner.completed(teacher, 10_000);
    const job = accepted(planner);
    expect(planner.earlyPollAt(job)).toBeLessThanOrEqual(job.nextPollAt!);
    planner.pollFailed(job.id);
    const backoff = { ...job, nextPollAt: clock.now + 60_000 };
    expect(planner.earlyPollAt(backoff)).toBe(backoff.nextPollAt);
    // A poll that answers again ends the backoff.
    planner.stillRunning(backoff, 1_000);
    expect(planner.earlyPollAt(backoff)).toBeLessThan(backoff.nextPollAt);
  });

  it("plans a job of the sandbox in the sandbox's time, and lets the sandbox and the service probe apart", () => {
    const sandboxBatch = 'b_sandbox';
    const timeScales = new TimeScales((batchId) => batchId === sandboxBatch, 0.1);
    const planner = new PollPlanner({ db: temp.db, now, timeScales });
    const fast = [accepted(planner, sandboxBatch), accepted(planner, sandboxBatch)];
    const real = accepted(planner);
    // The sandbox's two probes leave the service's shoots their own, each at an eighth of its prior.
    expect(fast.map((job) => job.nextPollAt)).toEqual([T0 + SHOOT_PRIOR / 80, T0 + SHOOT_PRIOR / 80]);
    expect(real.nextPollAt).toBe(T0 + SHOOT_PRIOR / 8);
    expect(planner.probes()).toEqual([fast[0]!.id, fast[1]!.id, real.id]);
    // At least 10 minutes before a job is stale, in its service's time.
    expect(planner.deadlineMs(fast[0]!)).toBe(60_000);
    expect(planner.deadlineMs(real)).toBe(600_000);
    // What a sandbox probe learns aims the sandbox's jobs, not the service's.
    clock.now = fast[0]!.nextPollAt!;
    expect(planner.completed(fast[0]!, clock.now - T0)).toBe(true);
    expect(planner.aimedPollAt(fast[1]!)).not.toBeNull();
    expect(planner.aimedPollAt(real)).toBeNull();
    expect(planner.isProbing(real)).toBe(true);
  });

  it("polls a late job on at growing gaps, its key's late jobs inside a quarter of its budget", () => {
    const rate = { limit: 60, windowMs: 60_000 };
    const planner = new PollPlanner({ db: temp.db, now, rateLimit: rate });
    // 40 shoots of one key past their 10-minute deadline, each polled when its plan says, for two hours.
    const late = Array.from({ length: 40 }, () => {
      const job = accepted(planner);
      return { ...job, deadlineAt: T0 + planner.deadlineMs(job), nextPollAt: T0 + 600_001 };
    });
    // The polls planned once late (their first, at the deadline, was planned before they were late).
    const planned: number[] = [];
    const gaps = new Map<string, number[]>();
    for (let at = T0 + 600_001; at < T0 + 2 * 3_600_000; at += 1000) {
      for (const job of late) {
        if (job.nextPollAt > at) continue;
        if (gaps.has(job.id)) planned.push(at);
        const next = planner.stillRunning(job, at - T0, 'key_1');
        gaps.set(job.id, [...(gaps.get(job.id) ?? []), next - at]);
        job.nextPollAt = next;
        expect(planner.earlyPollAt(job)).toBe(next);
      }
    }
    // Every late job is still polled to the end, never more than a quarter of the budget in any window.
    for (const job of late) expect(job.nextPollAt).toBeGreaterThan(T0 + 2 * 3_600_000 - 1_800_000);
    const busiest = Math.max(
      ...planned.map((at) => planned.filter((t) => t >= at && t < at + rate.windowMs).length),
    );
    expect(busiest).toBeLessThanOrEqual(rate.limit / 4);
    // Each job's gaps grow as it drags on.
    for (const list of gaps.values()) {
      expect(list.length).toBeGreaterThan(3);
      expect(list.at(-1)!).toBeGreaterThan(list[0]!);
    }
  });

  it('gives a late job of the sandbox up only hours of real time past its deadline, never scaled down', () => {
    const timeScales = new TimeScales(() => true, 0.01);
    const planner = new PollPlanner({ db: temp.db, now, timeScales });
    const job = accepted(planner);
    const deadlineAt = T0 + planner.deadlineMs(job);
    // The deadline is in the sandbox's time (10 minutes x0.01); giving up is in real time.
    expect(deadlineAt - T0).toBe(6_000);
    expect(GIVE_UP_AFTER_MS).toBeGreaterThanOrEqual(3_600_000);
    const late = { ...job, deadlineAt };
    expect(planner.givenUp(late, deadlineAt + 1)).toBe(false);
    expect(planner.givenUp(late, deadlineAt + GIVE_UP_AFTER_MS)).toBe(false);
    expect(planner.givenUp(late, deadlineAt + GIVE_UP_AFTER_MS + 1)).toBe(true);
  });

  it('looks at one job in five of a known class before its aim: "done by then" alone would keep aims late', () => {
    const planner = new PollPlanner({ db: temp.db, now });
    const teacher = accepted(planner);
    clock.now = teacher.nextPollAt!;
    planner.completed(teacher, clock.now - teacher.acceptedAt!);
    const delays = Array.from({ length: 10 }, () => {
      const job = accepted(planner);
      return job.nextPollAt! - job.acceptedAt!;
    });
    const aim = delays[0]!;
    expect(delays.filter((delay) => delay === aim)).toHaveLength(8);
    expect(delays[4]).toBeCloseTo(0.7 * aim);
    expect(delays[9]).toBeCloseTo(0.35 * aim);
  });

  it("brings polls learned twice too long back near the jobs' 90th percentile, a job at a time (seeded)", () => {
    const seed = Number(process.env.POLLS_SEED ?? 3);
    console.info(`poll planner seed ${seed} (POLLS_SEED=${seed} replays it)`);
    // What a busy day taught before brackets were kept: 24 durations about twice the truth, as points.
    const jobClass = durationClass({ kind: 'shoot', settings: QUICK_SHOOT }, false);
    const insert = temp.db.prepare('INSERT INTO duration_samples (class, seconds, at) VALUES (?, ?, ?)');
    for (const ms of seededLogNormal(seed, 24, 20_000, 0.5)) insert.run(jobClass, ms / 1000, clock.now++);
    // The jobs take 10 s typically (log-normal, sigma 0.5): their 90th percentile is 10 s x e^(0.5 x 1.28).
    const trueNinetieth = 10_000 * Math.exp(0.5 * 1.2816);
    const planner = new PollPlanner({ db: temp.db, now });
    const aimNow = () => {
      const job = accepted(planner);
      planner.forget(job);
      return planner.aimedPollAt(job)! - job.acceptedAt!;
    };
    const firstAim = aimNow();
    let polls = 0;
    const durations = seededLogNormal(seed + 1, 200, 10_000, 0.5);
    for (const durationMs of durations) {
      const job = accepted(planner);
      for (;;) {
        clock.now = job.nextPollAt!;
        polls++;
        const elapsed = clock.now - job.acceptedAt!;
        if (elapsed >= durationMs) {
          planner.completed(job, elapsed);
          break;
        }
        job.nextPollAt = planner.stillRunning(job, elapsed);
      }
    }
    expect(firstAim).toBeGreaterThan(1.6 * trueNinetieth);
    // Within a third of it after 200 jobs (seeds 3 to 8: 4 % to 31 %); looking below the aim costs little.
    expect(Math.abs(aimNow() - trueNinetieth) / trueNinetieth).toBeLessThan(0.35);
    expect(polls / durations.length).toBeLessThan(2);
  });
});
