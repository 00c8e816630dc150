import type { Migration } from '../migrate.ts';

// When a job was last committed to be sent (issue 27, point 1): its insert, or a retry that sends it
// again. A spending decision marks the highest before it asks the service for the balance, and counts what
// was committed past the mark as spent meanwhile (queue/spend.ts). The jobs' rowid served while only new
// jobs cost credits; a retry costs them too and keeps its row, so two retries of different jobs both
// passed a balance that covered one. The jobs already there keep their insertion order.
export const commitMark: Migration = {
  version: 21,
  name: '021-retry-commit-mark',
  up(db) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN committed_seq INTEGER;
      UPDATE jobs SET committed_seq = rowid;
      CREATE INDEX jobs_committed_seq ON jobs(committed_seq);
    `);
  },
};
