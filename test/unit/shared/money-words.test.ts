import { describe, expect, it } from 'vitest';
import {
  batchMoney,
  COUNTED,
  countedJobs,
  moneyWords,
  outcomesOf,
  outcomeWords,
  rateWords,
} from '../../../src-main/shared/money-words.ts';

// Issue 31 point 5: charged, refunded and net, and how shoots and videos ended, in one set of words.

describe('moneyWords', () => {
  it('says charged, refunded and net, and the quote when given', () => {
    expect(moneyWords({ charged: 868, refunded: 408 }, 868)).toBe(
      '868 credits charged, 408 refunded, 460 net, of 868 quoted',
    );
    expect(moneyWords({ charged: 1, refunded: 0 })).toBe('1 credit charged, 0 refunded, 1 net');
    expect(moneyWords({ charged: 12_000, refunded: 2_000 })).toBe(
      '12,000 credits charged, 2,000 refunded, 10,000 net',
    );
  });

  it('reads a batch’s charge back from its progress, whose spent credits are the net', () => {
    expect(batchMoney({ creditsSpent: 460, creditsRefunded: 408 })).toEqual({ charged: 868, refunded: 408 });
  });
});

describe('outcomeWords', () => {
  it('never counts a failure as made', () => {
    expect(outcomeWords({ failed: 12 }, COUNTED.video)).toBe('12 videos: 0 made, 12 failed');
    expect(outcomeWords({ done: 1 }, COUNTED.shoot)).toBe('1 shoot: 1 made');
  });

  it('counts every state once, so the outcomes add up to the total', () => {
    const states = {
      done: 3,
      failed: 2,
      outcome_unknown: 1,
      stale: 1,
      owed: 1,
      lost: 1,
      cancelled: 1,
      skipped: 1,
      waiting: 2,
      running: 1,
    };
    expect(outcomeWords(states, COUNTED.job)).toBe(
      '14 shoots and videos: 3 made, 2 failed, 3 in doubt, 1 charged, results out of reach, 2 not made, 3 under way',
    );
    expect(Object.values(outcomesOf(states)).reduce((sum, n) => sum + n, 0)).toBe(14);
  });

  it('calls a batch’s jobs what they are: shoots, videos, or shoots and videos', () => {
    expect(outcomeWords({ done: 3 }, countedJobs({ jobs: 3, videos: 0 }))).toBe('3 shoots: 3 made');
    expect(outcomeWords({ done: 2 }, countedJobs({ jobs: 2, videos: 2 }))).toBe('2 videos: 2 made');
    expect(outcomeWords({ done: 4 }, countedJobs({ jobs: 4, videos: 1 }))).toBe(
      '4 shoots and videos: 4 made',
    );
  });
});

describe('rateWords', () => {
  it('says a rate per unit', () => {
    expect(rateWords('second', 4)).toBe('4 credits a second');
    expect(rateWords('shot', 1)).toBe('1 credit a shot');
  });
});
