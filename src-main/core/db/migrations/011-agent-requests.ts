import type { Migration } from '../migrate.ts';

// Requests from agents to spend (issue 16, docs/agents.md): an agent's batch, quoted and submitted over MCP,
// waits here for a person's yes unless it fits the allowance the user set for agents. A row keeps everything
// the batch needs (its settings and its products as scanned), so any process holding the data folder (the
// app, `adbatch approve`) can create it. A client's request id is unique per client: a retried submit finds
// its row and makes no second batch. `state` moves pending -> created | declined | expired, or straight to
// created when the allowance covers it; the move to created and the batch's own rows are one transaction.
// The allowance is the user's, in credits a UTC day: for all agents (`day`) and per brand (`brand:<id>`);
// none is set by default, so every request waits. It lives here, not in the app's preferences, because the
// command line's MCP server reads it too.
export const agentRequests: Migration = {
  version: 11,
  name: '011-agent-requests',
  up(db) {
    db.exec(`
      CREATE TABLE agent_requests (
        id TEXT PRIMARY KEY,
        client TEXT NOT NULL,
        client_request_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        account_id TEXT NOT NULL,
        brand_id TEXT REFERENCES brands(id),
        name TEXT NOT NULL,
        request TEXT NOT NULL,
        credits INTEGER NOT NULL CHECK (credits >= 0),
        balance INTEGER,
        state TEXT NOT NULL CHECK (state IN ('pending', 'created', 'declined', 'expired')),
        decided_at INTEGER,
        decided_by TEXT,
        reason TEXT,
        batch_id TEXT REFERENCES batches(id) ON DELETE SET NULL,
        UNIQUE (client, client_request_id)
      );
      CREATE INDEX agent_requests_state ON agent_requests(state, created_at);
      CREATE TABLE agent_allowances (
        scope TEXT PRIMARY KEY CHECK (scope = 'day' OR scope LIKE 'brand:%'),
        credits INTEGER NOT NULL CHECK (credits >= 0)
      );
      ALTER TABLE batches ADD COLUMN agent_client TEXT;
    `);
  },
};
