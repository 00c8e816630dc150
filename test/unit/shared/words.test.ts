import { describe, expect, it } from 'vitest';
import { JOB_TRANSITIONS } from '../../../src-main/core/queue/states.ts';
import {
  BATCH_STATUSES,
  BATCH_VIEW_STATUSES,
  type JobState,
  PAUSE_REASONS,
  type PauseReason,
} from '../../../src-main/shared/vocabulary.ts';
import {
  BATCH_STATUS_WORDS,
  batchStatusWords,
  decisionWords,
  exportDoneWords,
  exportStateWords,
  JOB_STATE_WORDS,
  jobStateWords,
  jobWords,
  needsYouWords,
  retryWarning,
} from '../../../src-main/shared/words.ts';
import { jobView as job } from '../../support/job-view.ts';

// The words every front end shows for the domain's states: each state the engine can reach reads as words
// of its own (never a raw id like `outcome_unknown`), whatever the batch around it is doing; a decision says
// what it spends.

/** Every state a job can get to from `waiting`, following the engine's transition table. */
function reachableStates(): Set<JobState> {
  const reached = new Set<JobState>(['waiting']);
  for (const state of reached) for (const next of JOB_TRANSITIONS[state]) reached.add(next);
  return reached;
}

const CONTEXTS = [
  { paused: false, savingBlocked: false },
  { paused: true, savingBlocked: false },
  { paused: true, savingBlocked: true },
];

describe('a job’s state in words', () => {
  it('says what is happening to a job, a pause included', () => {
    const running = { paused: false, savingBlocked: false };
    expect(jobStateWords(job('video', 'waiting'), { paused: true, savingBlocked: false })).toBe(
      'video waiting for the pause to end',
    );
    expect(jobStateWords(job('shoot', 'waiting'), running)).toBe('waiting its turn');
    expect(jobStateWords({ ...job('shoot', 'running'), remoteStatus: 'pending' }, running)).toBe(
      'queued at the service',
    );
    expect(jobStateWords({ ...job('shoot', 'running'), remoteStatus: 'generating' }, running)).toBe(
      'being made',
    );
    expect(jobStateWords(job('shoot', 'downloading'), { paused: true, savingBlocked: true })).toBe(
      'paid, waiting to be saved',
    );
  });

  it('says what became of a failure’s credits, as the ledger has them: refunded, or never charged', () => {
    const running = { paused: false, savingBlocked: false };
    const failed = job('video', 'failed');
    // A generation that failed: charged up front, refunded by the service.
    expect(jobStateWords({ ...failed, creditsCharged: 34, creditsRefunded: 34 }, running)).toBe(
      'failed (refunded)',
    );
    // A create the service refused (HTTP 400): nothing was charged, so nothing was refunded either.
    expect(jobStateWords({ ...failed, creditsCharged: 0, creditsRefunded: 0 }, running)).toBe(
      'failed (not charged)',
    );
    // Its refund not yet in the ledger: no word of a refund that has not come.
    expect(jobWords({ ...failed, creditsCharged: 34, creditsRefunded: 0 })).toBe('failed');
    expect(jobWords({ ...job('shoot', 'done'), creditsCharged: 4, creditsRefunded: 0 })).toBe('done');
  });

  it('says a job past its deadline is taking longer than usual, not dead', () => {
    const running = { paused: false, savingBlocked: false };
    const late = { ...job('video', 'running'), late: true };
    expect(jobStateWords({ ...late, remoteStatus: 'generating' }, running)).toBe(
      'being made, taking longer than usual',
    );
    expect(jobStateWords({ ...late, remoteStatus: 'queued' }, running)).toBe(
      'queued at the service, taking longer than usual',
    );
  });

  it('has words of its own for every state the engine can reach, in every batch, never a raw id', () => {
    const reached = reachableStates();
    expect(reached.size).toBe(Object.keys(JOB_STATE_WORDS).length);
    for (const state of reached) {
      for (const context of CONTEXTS) {
        for (const kind of ['shoot', 'video'] as const) {
          const words = jobStateWords(job(kind, state), context);
          expect(words, `${kind} ${state}`).toMatch(/^[a-z][a-z ,():]+$/);
          expect(words, `${kind} ${state}`).not.toContain('_');
        }
      }
    }
    // Two states never read alike: the words tell them apart as the ids do.
    const plain = [...reached].map((state) => JOB_STATE_WORDS[state]);
    expect(new Set(plain).size).toBe(plain.length);
  });
});

describe('a batch’s status in words', () => {
  it('says why a paused batch is paused, each reason in words of its own', () => {
    const paused = PAUSE_REASONS.map((reason: PauseReason) =>
      batchStatusWords({ status: 'paused', statusReason: reason }),
    );
    for (const words of paused) expect(words).toMatch(/^paused\b[^_]*$/);
    expect(new Set(paused).size).toBe(PAUSE_REASONS.length);
    expect(batchStatusWords({ status: 'paused', statusReason: 'insufficient_credits' })).toBe(
      'paused: out of credits',
    );
    // A batch not paused says its status, whatever reason was left behind.
    for (const status of BATCH_VIEW_STATUSES.filter((one) => one !== 'paused')) {
      expect(batchStatusWords({ status, statusReason: 'user' })).toBe(BATCH_STATUS_WORDS[status]);
    }
    expect(BATCH_VIEW_STATUSES).toEqual([...BATCH_STATUSES, 'needs_you']);
    expect(batchStatusWords({ status: 'needs_you', statusReason: null })).toBe('needs you');
  });

  it('says, for a batch that needs you, what is in doubt and the credits not yet settled', () => {
    expect(
      needsYouWords({ attention: 0, states: { done: 3 }, creditsInDoubt: 0, staleOnAnswers: 0 }),
    ).toBeNull();
    expect(
      needsYouWords({
        attention: 3,
        states: { done: 3, outcome_unknown: 1, stale: 1, owed: 1 },
        creditsInDoubt: 12,
        staleOnAnswers: 0,
      }),
    ).toBe(
      '3 shoots or videos in doubt, 12 credits not yet settled (outcome unknown: 1; no answer from the service: 1; paid, not downloaded: 1). Check all again asks the service, free: nothing is sent again without your word.',
    );
    expect(
      needsYouWords({ attention: 1, states: { stale: 1 }, creditsInDoubt: 1, staleOnAnswers: 0 }),
    ).toMatch(/^1 shoot or video in doubt, 1 credit not yet settled \(no answer from the service: 1\)\./);
    // Stale jobs the service answered about (404, completed without results) are said apart from the silent.
    expect(
      needsYouWords({ attention: 3, states: { stale: 3 }, creditsInDoubt: 3, staleOnAnswers: 2 }),
    ).toMatch(/\(no answer from the service: 1; answered without results: 2\)\./);
  });
});

describe('a decision in words', () => {
  it('says what a retry costs, and that it may be paid twice when the first create may have been charged', () => {
    const failed = job('shoot', 'failed', 8);
    const unknown = { ...job('shoot', 'outcome_unknown', 8), creditsAtStake: 8 };
    expect(decisionWords('retry', failed)).toBe('Retry (costs 8 credits)');
    expect(decisionWords('retry', unknown)).toBe('Retry (costs 8 credits again)');
    expect(decisionWords('redownload', job('video', 'owed'))).toBe('Download again (free)');
    expect(decisionWords('abandon', unknown)).toBe('Abandon');
    expect(retryWarning(failed)).toBe('Sending this shoot again costs 8 credits.');
    expect(retryWarning(unknown)).toBe(
      'The service may already have made and charged this shoot (8 credits not yet settled); sending it again costs 8 credits more.',
    );
  });

  it('says that checking again is free, and that a lost job was paid for already', () => {
    expect(decisionWords('recheck', job('shoot', 'stale'))).toBe('Check again (free)');
    const lost = { ...job('shoot', 'lost', 8), creditsCharged: 8 };
    expect(decisionWords('retry', lost)).toBe('Retry (costs 8 credits again)');
    expect(retryWarning(lost)).toBe(
      'The service charged this shoot already (8 credits) though its results cannot be had; sending it again costs 8 credits more.',
    );
  });
});

describe('an ended export in words', () => {
  it('says "Exported" only when no file failed, and nothing exported when none was written', () => {
    expect(exportDoneWords({ written: 3, identical: 2, failed: 0 })).toBe('Exported');
    expect(exportDoneWords({ written: 0, identical: 0, failed: 0 })).toBe('Exported');
    expect(exportDoneWords({ written: 0, identical: 4, failed: 1 })).toBe('Partly exported');
    expect(exportDoneWords({ written: 0, identical: 0, failed: 3 })).toBe('Nothing exported');
    expect(exportStateWords({ state: 'done', written: 0, identical: 0, failed: 3 })).toBe(
      'done: nothing exported, 3 failed',
    );
    expect(exportStateWords({ state: 'done', written: 5, identical: 0, failed: 0 })).toBe('done');
    expect(exportStateWords({ state: 'stopped', written: 1, identical: 0, failed: 2 })).toBe('stopped');
  });
});
