import { describe, expect, it } from 'vitest';
import {
  BATCH_TRANSITIONS,
  canMove,
  canMoveBatch,
  JOB_TRANSITIONS,
} from '../../../../src-main/core/queue/states.ts';
import {
  BATCH_STATUSES,
  type BatchStatus,
  JOB_STATES,
  type JobState,
} from '../../../../src-main/shared/vocabulary.ts';

// The documented tables, written out here by hand: the code's tables must match them move for move, so an
// accidental edit of either side fails this test.
const EXPECTED_JOB_MOVES: Record<JobState, JobState[]> = {
  waiting: ['submitting', 'cancelled', 'skipped', 'failed'],
  submitting: ['running', 'waiting', 'failed', 'outcome_unknown'],
  running: ['running', 'downloading', 'failed', 'stale'],
  downloading: ['done', 'owed'],
  owed: ['downloading'],
  done: ['owed'],
  failed: ['waiting'],
  outcome_unknown: ['waiting', 'cancelled', 'failed', 'lost'],
  lost: ['waiting'],
  stale: ['running', 'waiting'],
  cancelled: [],
  skipped: ['waiting'],
};

const EXPECTED_BATCH_MOVES: Record<BatchStatus, BatchStatus[]> = {
  running: ['paused', 'cancelled', 'finished'],
  paused: ['running', 'cancelled', 'finished'],
  cancelled: ['finished'],
  finished: ['running'],
};

describe('job transitions', () => {
  it('lists every state, and nothing else', () => {
    expect([...JOB_STATES].sort()).toEqual(Object.keys(EXPECTED_JOB_MOVES).sort());
    expect(Object.keys(JOB_TRANSITIONS).sort()).toEqual([...JOB_STATES].sort());
  });

  it('allows every listed move', () => {
    for (const from of JOB_STATES) {
      for (const to of EXPECTED_JOB_MOVES[from]) expect(canMove(from, to), `${from} -> ${to}`).toBe(true);
      expect([...JOB_TRANSITIONS[from]].sort()).toEqual([...EXPECTED_JOB_MOVES[from]].sort());
    }
  });

  it('refuses every move that is not listed', () => {
    let refused = 0;
    for (const from of JOB_STATES) {
      for (const to of JOB_STATES) {
        if (EXPECTED_JOB_MOVES[from].includes(to)) continue;
        expect(canMove(from, to), `${from} -> ${to}`).toBe(false);
        refused++;
      }
    }
    // 12 x 12 pairs, 25 of them listed.
    expect(refused).toBe(144 - 25);
  });

  it('refuses the moves that could pay twice or lose a result', () => {
    // An unknown outcome is never sent again without the user's word (which goes through waiting).
    expect(canMove('outcome_unknown', 'submitting')).toBe(false);
    expect(canMove('outcome_unknown', 'running')).toBe(false);
    // A job in flight is never sent again directly.
    expect(canMove('submitting', 'submitting')).toBe(false);
    expect(canMove('running', 'submitting')).toBe(false);
    expect(canMove('running', 'waiting')).toBe(false);
    // Nothing reaches done without downloading.
    expect(canMove('running', 'done')).toBe(false);
    expect(canMove('submitting', 'done')).toBe(false);
    // A settled unknown outcome is never marked made: its results cannot be had without its id.
    expect(canMove('outcome_unknown', 'done')).toBe(false);
    expect(canMove('lost', 'downloading')).toBe(false);
    // A stale job is never sent again but through a retry (decisions.ts offers one only for a job the
    // service still said it does not know once the user checked again).
    expect(canMove('stale', 'submitting')).toBe(false);
  });

  it('sends a POST only from waiting', () => {
    const into = JOB_STATES.filter((from) => canMove(from, 'submitting'));
    expect(into).toEqual(['waiting']);
  });

  it('has no exit from cancelled, and only the documented moves out of the others that end a job', () => {
    const exits = (from: JobState) => JOB_STATES.filter((to) => canMove(from, to)).sort();
    expect(exits('cancelled')).toEqual([]);
    // A done job is owed again when its results are found missing from the library; an owed one is
    // downloaded again. Neither is ever sent again: no move leads back to waiting.
    expect(exits('done')).toEqual(['owed']);
    expect(exits('owed')).toEqual(['downloading']);
    // retry a failed job; retry or abandon an unknown outcome, or the usage report settles it (failed: not
    // charged; lost: charged, its results out of reach, only retried); check a stale job again, or retry
    // one the service says it does not know; a skipped video waits again when its shoot is retried.
    expect(exits('failed')).toEqual(['waiting']);
    expect(exits('outcome_unknown')).toEqual(['cancelled', 'failed', 'lost', 'waiting']);
    expect(exits('lost')).toEqual(['waiting']);
    expect(exits('stale')).toEqual(['running', 'waiting']);
    expect(exits('skipped')).toEqual(['waiting']);
  });

  it('reaches every state from waiting', () => {
    const seen = new Set<JobState>(['waiting']);
    const queue: JobState[] = ['waiting'];
    while (queue.length > 0) {
      const from = queue.shift()!;
      for (const to of JOB_STATES.filter((state) => canMove(from, state))) {
        if (!seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    expect([...seen].sort()).toEqual([...JOB_STATES].sort());
  });
});

describe('batch transitions', () => {
  it('allows exactly the listed moves', () => {
    expect([...BATCH_STATUSES].sort()).toEqual(Object.keys(EXPECTED_BATCH_MOVES).sort());
    for (const from of BATCH_STATUSES) {
      expect([...BATCH_TRANSITIONS[from]].sort()).toEqual([...EXPECTED_BATCH_MOVES[from]].sort());
      for (const to of BATCH_STATUSES) {
        expect(canMoveBatch(from, to), `${from} -> ${to}`).toBe(EXPECTED_BATCH_MOVES[from].includes(to));
      }
    }
  });

  it('never un-cancels a batch, and never moves a batch to itself', () => {
    expect(canMoveBatch('cancelled', 'running')).toBe(false);
    expect(canMoveBatch('cancelled', 'paused')).toBe(false);
    for (const status of BATCH_STATUSES) expect(canMoveBatch(status, status)).toBe(false);
  });
});
