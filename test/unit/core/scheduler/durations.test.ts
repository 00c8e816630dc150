import { describe, expect, it } from 'vitest';
import type { ShootSettings, VideoSettings } from '../../../../src-main/core/queue/types.ts';
import { DurationModel, durationClass } from '../../../../src-main/core/scheduler/durations.ts';
import { databasePerTest } from '../../../support/database-per-test.ts';

const T0 = 1_700_000_000_000;
const SHOOT = 'shoot:pro:4';
const VIDEO = 'video:720p:10';
const SANDBOX_SHOOT = `sandbox:${SHOOT}`;

const temp = databasePerTest(T0);
const { clock, now } = temp;

/** Teaches an exact duration: a poll saw it running at `seconds` and the next one saw it done at the same time. */
function teach(model: DurationModel, jobClass: string, seconds: number): void {
  clock.now += 1_000;
  model.learn(jobClass, seconds * 1000, seconds * 1000);
}

describe('durationClass', () => {
  it('classes shoots by quality and shots, videos by resolution and length', () => {
    const shoot: ShootSettings = {
      style: 'classic',
      shots: 4,
      quality: 'pro',
      aspectRatio: '1:1',
      mode: 'product_only',
      modelUrl: null,
      backgroundColor: null,
    };
    const video: VideoSettings = {
      duration: 10,
      resolution: '720p',
      mode: 'with_model',
      aspectRatio: '9:16',
    };
    expect(durationClass({ kind: 'shoot', settings: shoot }, false)).toBe(SHOOT);
    expect(durationClass({ kind: 'video', settings: video }, false)).toBe(VIDEO);
    // The sandbox's jobs run faster than real time: their classes are their own.
    expect(durationClass({ kind: 'shoot', settings: shoot }, true)).toBe(SANDBOX_SHOOT);
    expect(durationClass({ kind: 'video', settings: video }, true)).toBe(`sandbox:${VIDEO}`);
  });
});

describe('DurationModel', () => {
  it('probes when nothing is known: first at an eighth of the prior (scaled on the sandbox), then 1.6 times later each time', () => {
    const model = new DurationModel(temp.db, now);
    expect(model.knows(SHOOT)).toBe(false);
    // Shoots: "well under a minute", prior 30 s; videos: "several minutes", prior 180 s.
    expect(model.pollAfterMs(SHOOT, 0, 0.9)).toBe(3_750);
    expect(model.pollAfterMs(SHOOT, 3_750, 0.9)).toBe(6_000);
    expect(model.pollAfterMs(SHOOT, 6_000, 0.9)).toBe(9_600);
    expect(model.pollAfterMs(VIDEO, 0, 0.9)).toBe(22_500);
    expect(model.typicalMs(SHOOT)).toBe(30_000);

    // A sandbox ten times faster: its classes' priors are a tenth, the service's are as they were.
    const fast = new DurationModel(temp.db, now, 0.1);
    expect(fast.pollAfterMs(SANDBOX_SHOOT, 0, 0.9)).toBe(375);
    expect(fast.pollAfterMs(SANDBOX_SHOOT, 375, 0.9)).toBe(600);
    expect(fast.typicalMs(`sandbox:${VIDEO}`)).toBe(18_000);
    expect(fast.pollAfterMs(SHOOT, 0, 0.9)).toBe(3_750);
    expect(fast.typicalMs(VIDEO)).toBe(180_000);
  });

  it("keeps the sandbox's durations apart from the service's: they help only each other", () => {
    const model = new DurationModel(temp.db, now, 0.1);
    teach(model, SANDBOX_SHOOT, 0.5);
    expect(model.knows(SANDBOX_SHOOT)).toBe(true);
    expect(model.knows('sandbox:shoot:standard:1')).toBe(true);
    expect(model.knows(SHOOT)).toBe(false);
    expect(model.knows('sandbox:video:720p:10')).toBe(false);
    expect(model.typicalMs(SHOOT)).toBe(30_000);
    teach(model, SHOOT, 20);
    expect(model.typicalMs(SHOOT)).toBe(20_000);
    expect(model.typicalMs(SANDBOX_SHOOT)).toBe(500);
  });

  it('aims at the requested quantile of the known durations longer than the time already waited', () => {
    const model = new DurationModel(temp.db, now);
    for (const seconds of [100, 30, 70, 10, 50, 90, 20, 60, 40, 80]) teach(model, SHOOT, seconds);
    expect(model.knows(SHOOT)).toBe(true);
    // All ten are longer than 0 s: the 0.5 quantile is the sixth, 60 s; 0.9 the tenth.
    expect(model.pollAfterMs(SHOOT, 0, 0.5)).toBe(60_000);
    expect(model.pollAfterMs(SHOOT, 0, 0.9)).toBe(100_000);
    expect(model.pollAfterMs(SHOOT, 0, 0)).toBe(10_000);
    expect(model.pollAfterMs(SHOOT, 0, 1)).toBe(100_000);
    // Still running at 45 s: only 50 .. 100 remain possible.
    expect(model.pollAfterMs(SHOOT, 45_000, 0.5)).toBe(80_000);
    expect(model.pollAfterMs(SHOOT, 45_000, 0)).toBe(50_000);
    // A duration equal to the time waited is no longer possible.
    expect(model.pollAfterMs(SHOOT, 50_000, 0)).toBe(60_000);
    expect(model.typicalMs(SHOOT)).toBe(60_000);
  });

  it('looks early at even odds, and once past the typical duration a tenth of it after the last look', () => {
    const model = new DurationModel(temp.db, now);
    for (const seconds of [100, 30, 70, 10, 50, 90, 20, 60, 40, 80, 300]) teach(model, SHOOT, seconds);
    // Typical 60 s. Not yet polled: the even odds, 60 s.
    expect(model.earlyLookMs(SHOOT, 0)).toBe(60_000);
    // Seen running at 30 s: the even odds of what is longer (40 .. 300) would be 80 s; the typical comes first.
    expect(model.earlyLookMs(SHOOT, 30_000)).toBe(60_000);
    // Seen running at 100 s: only 300 s is longer, so the even odds are 300 s; a look 6 s later instead.
    expect(model.pollAfterMs(SHOOT, 100_000, 0.5)).toBe(300_000);
    expect(model.earlyLookMs(SHOOT, 100_000)).toBe(106_000);
    // Past everything learned, the same: a tenth of the typical after the last look.
    expect(model.earlyLookMs(SHOOT, 400_000)).toBe(406_000);
  });

  it('gives the durations learned before a moment, from as many of the most recent as asked', () => {
    const model = new DurationModel(temp.db, now);
    for (const seconds of [10, 20, 30, 40]) teach(model, VIDEO, seconds);
    const batchBegan = clock.now + 1;
    for (const seconds of [50, 60]) teach(model, VIDEO, seconds);
    teach(model, SHOOT, 5);
    expect(model.learnedBeforeMs(VIDEO, batchBegan, 3)).toEqual([20_000, 30_000, 40_000]);
    expect(model.learnedBeforeMs(VIDEO, batchBegan, 100)).toEqual([10_000, 20_000, 30_000, 40_000]);
    expect(model.learnedSinceMs(VIDEO, batchBegan)).toEqual([50_000, 60_000]);
    expect(model.learnedBeforeMs(SHOOT, batchBegan, 100)).toEqual([]);
  });

  it('backs off in proportion to the wait once past every known duration', () => {
    const model = new DurationModel(temp.db, now);
    for (const seconds of [10, 20, 30]) teach(model, SHOOT, seconds);
    // typical 20 s: a quarter is 5 s; a quarter of 40 s waited is 10 s, the larger.
    expect(model.pollAfterMs(SHOOT, 40_000, 0.9)).toBe(50_000);
    // Exactly at the longest: nothing known is longer, so back off too.
    expect(model.pollAfterMs(SHOOT, 30_000, 0.9)).toBe(30_000 + 7_500);
    expect(model.pollAfterMs(SHOOT, 400_000, 0.9)).toBe(500_000);
  });

  it('lets related classes of the same kind stand in until a class has 3 samples of its own', () => {
    const model = new DurationModel(temp.db, now);
    teach(model, SHOOT, 20);
    const other = 'shoot:standard:1';
    expect(model.knows(other)).toBe(true);
    expect(model.knows(VIDEO)).toBe(false);
    expect(model.pollAfterMs(other, 0, 0.5)).toBe(20_000);
    expect(model.pollAfterMs(VIDEO, 0, 0.9)).toBe(22_500);

    teach(model, other, 40);
    teach(model, other, 42);
    // Two of its own, plus the related one: 20, 40, 42.
    expect(model.typicalMs(other)).toBe(40_000);
    expect(model.pollAfterMs(other, 0, 0)).toBe(20_000);
    teach(model, other, 44);
    // Three of its own: the related sample no longer counts.
    expect(model.pollAfterMs(other, 0, 0)).toBe(40_000);
    expect(model.typicalMs(other)).toBe(42_000);
    // ... while the shoot class with one sample is helped by the other's three: 20, 40, 42, 44.
    expect(model.typicalMs(SHOOT)).toBe(42_000);
    expect(model.pollAfterMs(SHOOT, 0, 0)).toBe(20_000);
  });

  it('keeps its samples across a new model on the same database', () => {
    const model = new DurationModel(temp.db, now);
    for (const seconds of [12, 18, 24]) teach(model, SHOOT, seconds);
    teach(model, VIDEO, 200);
    temp.reopen();
    const restarted = new DurationModel(temp.db, now);
    expect(restarted.knows(SHOOT)).toBe(true);
    expect(restarted.typicalMs(SHOOT)).toBe(18_000);
    expect(restarted.pollAfterMs(SHOOT, 13_000, 0.5)).toBe(24_000);
    expect(restarted.typicalMs(VIDEO)).toBe(200_000);
  });

  it('follows recent samples only (the last 24 of a class), also after a restart', () => {
    const model = new DurationModel(temp.db, now);
    for (let index = 0; index < 10; index++) teach(model, SHOOT, 500);
    for (let index = 0; index < 24; index++) teach(model, SHOOT, 10);
    expect(model.typicalMs(SHOOT)).toBe(10_000);
    expect(model.pollAfterMs(SHOOT, 0, 1)).toBe(10_000);
    expect(new DurationModel(temp.db, now).pollAfterMs(SHOOT, 0, 1)).toBe(10_000);
  });

  it("keeps what each job's polls saw as a bracket, and reads the durations learned before brackets as exact", () => {
    const model = new DurationModel(temp.db, now);
    clock.now = T0 + 5;
    model.learn(SHOOT, 10_000, 20_000);
    clock.now = T0 + 6;
    model.learn(VIDEO, null, 100_000);
    const rows = temp.db
      .prepare('SELECT class, seconds, lo_seconds, at FROM duration_samples ORDER BY at')
      .all();
    expect(rows).toEqual([
      { class: SHOOT, seconds: 20, lo_seconds: 10, at: T0 + 5 },
      { class: VIDEO, seconds: 100, lo_seconds: 0, at: T0 + 6 },
    ]);
    // Alone, a bracket with a lower end says about its middle; one without, about half its end (a quarter
    // of it to all of it).
    expect(Math.abs(model.typicalMs(SHOOT) - 15_000)).toBeLessThan(1_000);
    expect(Math.abs(model.typicalMs(VIDEO) - 50_000)).toBeLessThan(5_000);
    // A second video seen running at 30 s and done by 40 s: the first one's "by 100 s" takes its shape.
    model.learn(VIDEO, 30_000, 40_000);
    expect(model.knownMs(VIDEO).every((ms) => ms > 29_000 && ms < 41_000)).toBe(true);

    // A row learned as a point before brackets were kept (migration 022) is an exact duration, and the
    // bracket of 10 to 20 s, which holds it, takes its shape.
    temp.db
      .prepare('INSERT INTO duration_samples (class, seconds, at) VALUES (?, ?, ?)')
      .run(SHOOT, 12, T0 + 7);
    const shoots = new DurationModel(temp.db, now).knownMs(SHOOT);
    expect(shoots.every((ms) => ms > 11_000 && ms < 13_000)).toBe(true);
  });
});
