import type { EtaInput } from '../src-main/core/queue/eta.ts';
import { parseDurationSpread } from '../src-main/sandbox/duration-spread.ts';
import { planShoot, planVideo } from '../src-main/sandbox/lifecycle.ts';
import { mulberry32 } from '../src-main/shared/seeded-random.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../test/support/job-settings.ts';

// What bench:eta compares the estimator with: the same estimator, told the durations the sandbox draws
// from (its plan for the bench's jobs, at its time scale and spread) instead of what the batch has
// learned. What is left of its error is not the learning's: it is what no estimator can know (which of
// the jobs still running happen to be slow, how long a poll is late), and the part of the batch the
// estimator does not model (the sandbox's renders queueing on the machine's cores). A spread whose
// oracle misses the target says that the target is out of reach at that batch size, not that the
// estimator learned badly.

/** Draws per kind: enough that the spread's tail is there in its proportions. */
const DRAWS = 400;

/** Durations the sandbox plans for the bench's shoots and videos, in ms, at `timeScale` and `spread`. */
export function spreadDurations(spread: string, timeScale: number): Record<'shoot' | 'video', number[]> {
  const timing = {
    timeScale,
    failureRate: 0,
    durations: parseDurationSpread(spread),
    random: mulberry32(27),
  };
  const shoot = () => planShoot(0, QUICK_SHOOT.shots, QUICK_SHOOT.quality, timing).plan.at(-1)!.at;
  const video = () => planVideo(0, QUICK_VIDEO.duration, QUICK_VIDEO.resolution, timing).plan.at(-1)!.at;
  return {
    shoot: Array.from({ length: DRAWS }, shoot),
    video: Array.from({ length: DRAWS }, video),
  };
}

/** The estimator's input as if it had learned the spread itself: every job's durations are the sandbox's. */
export function knowingTheSpread(input: EtaInput, durations: Record<'shoot' | 'video', number[]>): EtaInput {
  return {
    ...input,
    jobs: input.jobs.map((job) => ({
      ...job,
      samplesMs: durations[job.kind],
      batchSamplesMs: durations[job.kind],
    })),
  };
}
