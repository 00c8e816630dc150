import type { Migration } from '../migrate.ts';

// Whether a key's service answers, as the process driving the queue saw it lately (core/scheduler/
// service-trouble.ts): one row per key while every request of it fails, none once one is answered. In the
// database, not only in that process's memory, so that a process that only looks (`adbatch status`, an MCP
// server beside the app) says the service does not answer rather than "waiting on the service".
export const serviceTrouble: Migration = {
  version: 24,
  name: '024-service-trouble',
  up(db) {
    db.exec(`
      CREATE TABLE service_trouble (
        key_id TEXT PRIMARY KEY,
        since INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('no_answer', 'errors')),
        reason TEXT NOT NULL
      );
    `);
  },
};
