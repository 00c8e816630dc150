import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../../src-main/cli/progress.ts';
import { batchProgress } from '../../support/batch-progress.ts';

// The CLI's progress line of a running batch: its time left, or, while its service does not answer, that
// instead (what the core says is in test/integration/app/service-trouble.test.ts).

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

const running = batchProgress({
  jobs: 13,
  done: 9,
  states: { done: 9, running: 4 },
  created: 13,
  inFlight: 4,
  creditsSpent: 52,
  eta: {
    at: NOW + 90_000,
    from: NOW + 60_000,
    to: NOW + 120_000,
    range: false,
    lastProgressAt: NOW,
    stalledAt: null,
  },
});

describe('the progress line', () => {
  it('ends with the time left while the service answers', () => {
    expect(formatProgress(running, NOW)).toMatch(
      / {2}52 credits charged, 0 refunded, 52 net {2}ETA about 2 min left$/,
    );
  });

  it('says the service has not answered, and since when, instead of a time left', () => {
    const line = formatProgress(
      {
        ...running,
        serviceTrouble: { kind: 'no_answer', reason: 'the connection was refused', since: NOW - 150_000 },
      },
      NOW,
    );
    expect(line).toMatch(
      /, 52 net {2}the service has not answered for 3 min \(the connection was refused\): Adbatch keeps asking$/,
    );
    expect(line).not.toContain('ETA');
  });

  it('ends with the credits once every job has ended: no time left to say', () => {
    const ended = batchProgress({
      ...running,
      done: 13,
      states: { done: 13 },
      inFlight: 0,
      eta: null,
    });
    expect(formatProgress(ended, NOW)).toMatch(
      / {2}13 shoots: 13 made {2}52 credits charged, 0 refunded, 52 net$/,
    );
  });
});
