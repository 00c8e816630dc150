import type { BatchProgress } from '../../src-main/shared/models.ts';

// A running batch's progress as core emits it, for tests of what a front end makes of one: ten jobs, none
// sent yet, unless `overrides` says otherwise.

export const batchProgress = (overrides: Partial<BatchProgress> = {}): BatchProgress => ({
  id: 'b1',
  name: 'Spring',
  status: 'running',
  statusReason: null,
  statusMessage: null,
  upload: null,
  jobs: 10,
  videos: 0,
  done: 0,
  failed: 0,
  attention: 0,
  states: {},
  staleOnAnswers: 0,
  created: 0,
  inFlight: 0,
  creditsSpent: 0,
  creditsRefunded: 0,
  creditsAtStake: 0,
  creditsInDoubt: 0,
  eta: null,
  serviceTrouble: null,
  ...overrides,
});
