import { describe, expect, it } from 'vitest';
import { type EtaInput, type EtaJob, estimateEta, explainEta } from '../../../../src-main/core/queue/eta.ts';
import { etaWords } from '../../../../src-main/shared/words.ts';
import { seededLogNormal } from '../../../support/seeded-durations.ts';

// The batch's ETA (issue 27, point 9): from the learned durations of the jobs still to run and the key's
// request budget; a range while little is known; moments a front end counts down between answers; and
// "waiting on the service" once nothing has finished for long while jobs run.

const NOW = 1_700_000_000_000;
const RATE = { limit: 60, windowMs: 60_000 };
const SHOOT_PRIOR = 30_000;
const VIDEO_PRIOR = 180_000;

/** Durations learned around `typical`, ±10 %, as a class that has run for a while shows them. */
const learned = (typical: number, count = 24) =>
  Array.from({ length: count }, (_, index) => typical * (0.9 + (0.2 * index) / count));

/** The `q` quantile of `values`. */
const quantileOf = (values: readonly number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * values.length)]!;

function job(id: string, overrides: Partial<EtaJob> = {}): EtaJob {
  return {
    id,
    kind: 'shoot',
    phase: 'waiting',
    elapsedMs: 0,
    polledRunningMs: 0,
    after: null,
    durationClass: overrides.kind ?? 'shoot',
    samplesMs: [],
    batchSamplesMs: [],
    earlierSamplesMs: [],
    priorMs: SHOOT_PRIOR,
    ...overrides,
  };
}

function input(jobs: EtaJob[], overrides: Partial<EtaInput> = {}): EtaInput {
  return { now: NOW, jobs, rate: RATE, lastProgressAt: NOW, minStallMs: 60_000, ...overrides };
}

/** `products` products, a shoot and a video each, none sent, their classes known as given. */
function products(count: number, shoot: number[], video: number[]): EtaJob[] {
  return Array.from({ length: count }, (_, index) => [
    job(`s${index}`, { samplesMs: shoot }),
    job(`v${index}`, { kind: 'video', after: `s${index}`, samplesMs: video, priorMs: VIDEO_PRIOR }),
  ]).flat();
}

describe('estimateEta', () => {
  it('has nothing to say of a batch with nothing left to run', () => {
    expect(estimateEta(input([]))).toBeNull();
  });

  it('says a range while little is learned, and a likely time once much is', () => {
    const guessed = estimateEta(input(products(3, [], [])))!;
    expect(guessed.range).toBe(true);
    // The shoot and then the video, both guessed around their priors (3.5 min), the slowest of three.
    expect(guessed.at - NOW).toBeGreaterThan(0.5 * (SHOOT_PRIOR + VIDEO_PRIOR));
    expect(guessed.at - NOW).toBeLessThan(3 * (SHOOT_PRIOR + VIDEO_PRIOR));
    expect(guessed.to - guessed.from).toBeGreaterThan(0.5 * (guessed.at - NOW));
    expect(etaWords(guessed, NOW)).toMatch(/^about \d+ (s )?to \d+ min left$/);

    const known = estimateEta(input(products(3, learned(20_000), learned(80_000))))!;
    expect(known.range).toBe(false);
    // A shoot's 20 s, then its video's 80 s, each seen done soon after: three products leave the budget
    // room for early looks.
    expect(known.at - NOW).toBeGreaterThan(100_000);
    expect(known.at - NOW).toBeLessThan(115_000);
    expect(etaWords(known, NOW)).toBe('about 2 min left');
  });

  it("counts the key's request budget: many jobs take as long as their requests allow", () => {
    const few = estimateEta(input(products(2, learned(1000), learned(2000))))!;
    const many = estimateEta(input(products(200, learned(1000), learned(2000))))!;
    // 400 jobs of about 2.3 requests each at 60 a minute: some 15 minutes, however quick each job is.
    expect(few.at - NOW).toBeLessThan(10_000);
    expect(many.at - NOW).toBeGreaterThan(12 * 60_000);
    expect(many.at - NOW).toBeLessThan(18 * 60_000);
  });

  it('draws from what was learned: a slow tail makes the batch end later than its typical job', () => {
    const steady = learned(60_000);
    const tail = steady.map((ms, index) => (index % 8 === 0 ? ms * 4 : ms));
    const withTail = estimateEta(input(products(30, learned(10_000), tail)))!;
    const withoutTail = estimateEta(input(products(30, learned(10_000), steady)))!;
    expect(withTail.at - NOW).toBeGreaterThan(1.5 * (withoutTail.at - NOW));
  });

  it("foresees a slow tail that earlier batches showed, while the batch's own finished jobs are all quick", () => {
    // One video in ten takes four times the typical 10 s, as 120 earlier durations show. Half the batch's
    // 30 videos ended, all quick (the quick end first); the other 15 run, 10 s in, not yet polled.
    const earlier = Array.from({ length: 120 }, (_, index) => (index % 10 === 0 ? 40_000 : 10_000));
    const quick = Array.from({ length: 15 }, (_, index) => 9_000 + index * 100);
    const videos = Array.from({ length: 15 }, (_, index) =>
      job(`v${index}`, {
        kind: 'video',
        phase: 'running',
        elapsedMs: 10_000,
        samplesMs: [...earlier.slice(-9), ...quick],
        batchSamplesMs: quick,
        earlierSamplesMs: earlier,
        priorMs: VIDEO_PRIOR,
      }),
    );
    const eta = estimateEta(input(videos))!;
    // Four in five batches have a slow one among 15: some 30 s more, not the quick ones' moment.
    expect(eta.at - NOW).toBeGreaterThan(20_000);
    expect(eta.at - NOW).toBeLessThan(45_000);
    expect(eta.from - NOW).toBeLessThan(5_000);
  });

  it('counts a running job from what it has run already', () => {
    const running = (elapsedMs: number) =>
      estimateEta(
        input([job('v', { kind: 'video', phase: 'running', elapsedMs, samplesMs: learned(60_000) })]),
      )!;
    const fresh = running(5_000);
    const nearlyDone = running(50_000);
    expect(fresh.at - NOW).toBeGreaterThan(nearlyDone.at - NOW + 30_000);
    // Past everything learned it is still expected, a little later.
    expect(running(120_000).at).toBeGreaterThan(NOW);
  });

  it('gives moments that count down between answers, and the same answer for the same facts', () => {
    const facts = input(products(3, learned(20_000), learned(80_000)));
    const eta = estimateEta(facts)!;
    expect(estimateEta(facts)).toEqual(eta);
    const words = [0, 30_000, 60_000, eta.at - NOW + 1, eta.to - NOW].map((after) =>
      etaWords(eta, NOW + after),
    );
    expect(words.slice(0, 3)).toEqual([
      'about 2 min left',
      'about 1 min left',
      expect.stringMatching(/^about \d\d s left$/),
    ]);
    expect(words[3]).toMatch(/^under \d+ s left$/);
    expect(words[4]).toBe('almost done');
  });

  it('says the batch waits on the service once nothing has finished for long while jobs run', () => {
    const lastProgressAt = NOW - 4 * 60_000;
    const eta = estimateEta(
      input([job('v', { kind: 'video', phase: 'running', elapsedMs: 240_000, samplesMs: learned(60_000) })], {
        lastProgressAt,
      }),
    )!;
    // Twice the 60 s typical of the running video, at least the minute given.
    expect(eta.stalledAt).toBe(lastProgressAt + 120_000);
    expect(etaWords(eta, NOW)).toBe('waiting on the service for 4 min');
    expect(etaWords(eta, NOW + 60_000)).toBe('waiting on the service for 5 min');
    // Nothing running: nothing to wait on.
    expect(estimateEta(input(products(1, [], []), { lastProgressAt }))!.stalledAt).toBeNull();
  });

  it('puts what little is learned into the range, not into the likeliest time', () => {
    const batch = (count: number) => products(10, learned(20_000, count), learned(60_000, count));
    const little = estimateEta(input(batch(4)))!;
    const much = estimateEta(input(batch(24)))!;
    // Both learned the same typical durations: the likeliest end is the same, only how sure it is differs.
    expect(Math.abs(little.at - much.at)).toBeLessThan(0.1 * (much.at - NOW));
    expect(little.to - little.from).toBeGreaterThan(1.5 * (much.to - much.from));
    expect(little.at).toBeGreaterThan(little.from);
    expect(little.to).toBeGreaterThan(little.at);
  });

  it('counts a running job as having outlasted the last poll that found it running, not all its time', () => {
    // Half the videos take 10 s, the rest a minute but one at 30 s: with the budget free, the first poll
    // looks at the even odds, 30 s. A video running for 12 s has not been polled yet: it may well be done
    // and waiting for that poll, not one of the slow ones because it has run past 10 s.
    const samplesMs = [...Array(12).fill(10_000), 30_000, ...Array(11).fill(60_000)];
    const eta = estimateEta(
      input([
        job('v', { kind: 'video', phase: 'running', elapsedMs: 12_000, samplesMs, priorMs: VIDEO_PRIOR }),
      ]),
    )!;
    expect(eta.at - NOW).toBe(18_000);
    // It may yet be a slow one: the range says so.
    expect(eta.to - NOW).toBeGreaterThan(40_000);
  });

  it("explains the likeliest time left: the last job's wait for its shoot, the budget, the work and its poll", () => {
    const facts = input(products(100, learned(1000), learned(2000)));
    const eta = estimateEta(facts)!;
    const parts = explainEta(facts)!;
    expect(parts.shootMs + parts.budgetMs + parts.workMs + parts.seenMs).toBeCloseTo(eta.at - NOW, -1);
    // 200 jobs at the budget's pace: waiting to be sent (the last video's shoot waited too) is most of it,
    // the work a couple of seconds.
    expect(parts.shootMs + parts.budgetMs).toBeGreaterThan(0.8 * (eta.at - NOW));
    expect(parts.workMs).toBeGreaterThan(1000);
    expect(parts.workMs).toBeLessThan(3000);
    expect(explainEta(input([]))).toBeNull();
  });
});

describe('etaWords', () => {
  /** An ETA at NOW whose range runs `from` to `to` ms from now, its likeliest halfway. */
  const ranged = (from: number, to: number, range = true) => ({
    at: NOW + (from + to) / 2,
    from: NOW + from,
    to: NOW + to,
    range,
    lastProgressAt: NOW,
    stalledAt: null,
  });

  it('says a range as a guess, in one unit when both ends share it', () => {
    expect(etaWords(ranged(2 * 60_000, 6 * 60_000), NOW)).toBe('about 2 to 6 min left');
    expect(etaWords(ranged(20_000, 40_000), NOW)).toBe('about 20 to 40 s left');
    expect(etaWords(ranged(40_000, 3 * 60_000), NOW)).toBe('about 40 s to 3 min left');
    expect(etaWords(ranged(3 * 60_000, 3 * 60_000 + 10_000), NOW)).toBe('about 3 min left');
    expect(etaWords(ranged(2 * 60_000, 6 * 60_000, false), NOW)).toBe('about 4 min left');
  });

  it('counts a range down with the clock, to "under" once its early end has passed', () => {
    const eta = ranged(2 * 60_000, 6 * 60_000);
    expect(etaWords(eta, NOW + 60_000)).toBe('about 1 to 5 min left');
    expect(etaWords(eta, NOW + 3 * 60_000)).toBe('under 3 min left');
    expect(etaWords(eta, NOW + 6 * 60_000)).toBe('almost done');
  });
});

describe('a batch half done, its slow half still running', () => {
  const SEED = Number(process.env.ETA_SEED ?? 1);

  /**
   * 60 videos sent at once, log-normal durations (median 1 min, spread 0.5), looked at when half have
   * ended: for 8 seeds from SEED, how late the likeliest end is against the truth (the longest running
   * one's end), with the durations drawn from the batch's cohort or from the 24 most recent alone.
   */
  function ratios(fromCohort: boolean): number[] {
    return Array.from({ length: 8 }, (_, index) => {
      const durations = seededLogNormal(SEED + index, 60, 60_000, 0.5);
      const elapsedMs = [...durations].sort((a, b) => a - b)[30]! + 1;
      const finished = durations.filter((ms) => ms < elapsedMs);
      const running = durations.filter((ms) => ms >= elapsedMs);
      const jobs = running.map((_, at) =>
        job(`v${at}`, {
          kind: 'video',
          phase: 'running',
          elapsedMs,
          // Polled a moment ago, found running: each outlasts the longest duration that ended.
          polledRunningMs: elapsedMs - 1,
          samplesMs: finished.slice(-24),
          batchSamplesMs: fromCohort ? finished : [],
          priorMs: VIDEO_PRIOR,
        }),
      );
      const eta = estimateEta(input(jobs))!;
      return (eta.at - NOW) / (Math.max(...running) - elapsedMs);
    });
  }

  it('is not put early: the running jobs count as outlasting what they ran, their tail fitted', () => {
    console.info(`eta seeds ${SEED} to ${SEED + 7} (ETA_SEED=${SEED} replays them)`);
    const cohort = ratios(true);
    const recentOnly = ratios(false);
    // The quickest half alone says the slow half ends a little after the quickest: far too early.
    expect(recentOnly.filter((ratio) => ratio >= 0.5).length).toBeLessThanOrEqual(1);
    expect(cohort.filter((ratio) => ratio >= 0.5).length).toBeGreaterThanOrEqual(4);
  });
});

describe('a long job polled a moment ago', () => {
  const SEED = Number(process.env.ETA_SEED ?? 1);

  /**
   * A video running past most of its class's durations (log-normal, median 15 s, spread 0.6), the budget
   * free: once the budget frees the planner looks early, so the last poll that found it running is recent
   * (half a second ago), and the job is still at work. Replaying the polls as if the budget had been busy
   * put the last one before it started and drew it as done long ago, waiting for a poll.
   */
  function likeliest(seed: number, polledAgoMs: number) {
    const samplesMs = seededLogNormal(seed, 24, 15_000, 0.6);
    const elapsedMs = Math.round(quantileOf(samplesMs, 0.8));
    const running = job('v', {
      kind: 'video',
      phase: 'running',
      elapsedMs,
      polledRunningMs: Math.max(0, elapsedMs - polledAgoMs),
      samplesMs,
      priorMs: VIDEO_PRIOR,
    });
    return explainEta(input([running]))!;
  }

  it('is drawn as still at work, not as done and waiting for its poll', () => {
    console.info(`eta polled seeds ${SEED} to ${SEED + 7} (ETA_SEED=${SEED} replays them)`);
    for (let seed = SEED; seed < SEED + 8; seed++) {
      expect(likeliest(seed, 500).workMs, `seed ${seed}`).toBeGreaterThan(0);
      // Not polled since it was sent: it may well be done, waiting for its first poll.
      expect(likeliest(seed, Number.POSITIVE_INFINITY).workMs, `seed ${seed}`).toBe(0);
    }
  });
});
