import type { Migration } from '../migrate.ts';

// A learned duration is kept as the bracket its polls saw (scheduler/brackets.ts): `seconds` is when a poll
// found the job done, `lo_seconds` when the last poll before it found the job running (0 when none did).
// The rows already there were learned as points, a bracket's middle or its end shaded down: `lo_seconds`
// stays NULL for them, and they are read as exact durations.
export const durationBrackets: Migration = {
  version: 22,
  name: '022-duration-brackets',
  up(db) {
    db.exec('ALTER TABLE duration_samples ADD COLUMN lo_seconds REAL');
  },
};
