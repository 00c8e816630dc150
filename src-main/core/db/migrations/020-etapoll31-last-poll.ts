import type { Migration } from '../migrate.ts';

// When a poll last found the job still running at the service (issue 27, point 9): the ETA's lower bound
// on a running job's duration. Replaying the planner's polls instead guessed it wrong once the budget freed
// (the pump looks early), and drew a long video polled a moment ago as done, waiting for its poll. Null
// until a poll finds the job running (and for jobs polled before this column).
export const lastPoll: Migration = {
  version: 20,
  name: '020-etapoll31-last-poll',
  up(db) {
    db.exec('ALTER TABLE jobs ADD COLUMN last_polled_running_at INTEGER;');
  },
};
