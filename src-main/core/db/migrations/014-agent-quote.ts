import type { Migration } from '../migrate.ts';

// One quote makes at most one batch (issue 27): an agent's request keeps the quote it was submitted with,
// and no two requests share one. The spending decision that writes a request refuses a quote already used,
// naming the request (and the batch it made); the unique index is the last word if two ever raced past it.
// Requests made before this have none.
export const agentQuote: Migration = {
  version: 14,
  name: '014-agent-quote',
  up(db) {
    db.exec(`
      ALTER TABLE agent_requests ADD COLUMN quote_id TEXT;
      CREATE UNIQUE INDEX agent_requests_quote ON agent_requests(quote_id) WHERE quote_id IS NOT NULL;
    `);
  },
};
