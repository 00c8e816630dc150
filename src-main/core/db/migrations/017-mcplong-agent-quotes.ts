import type { Migration } from '../migrate.ts';

// An agent's scans and quotes outlive the process that made them (issue 30): a client that starts
// `adbatch mcp` for each call (the MCP Inspector's CLI), or a server restarted between the quote and the
// submit, finds them here, as a long-lived server would hold them. Each is kept 30 minutes; expired rows
// are deleted when new ones are written. A scan keeps its products as scanned (the quote's plan is made of
// them); a quote keeps what `agents:submit` writes into the request.
export const agentQuotes: Migration = {
  version: 17,
  name: '017-mcplong-agent-quotes',
  up(db) {
    db.exec(`
      CREATE TABLE agent_scans (
        id TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL,
        products TEXT NOT NULL
      );
      CREATE TABLE agent_quotes (
        id TEXT PRIMARY KEY,
        client TEXT NOT NULL,
        account_id TEXT NOT NULL,
        brand_id TEXT,
        name TEXT NOT NULL,
        plan TEXT NOT NULL,
        credits INTEGER NOT NULL,
        balance INTEGER,
        expires_at INTEGER NOT NULL
      );
    `);
  },
};
