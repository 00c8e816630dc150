import type { Migration } from '../migrate.ts';

// The app's service accounts. The API key is stored only sealed by the OS keychain (Electron safeStorage);
// its one-way id groups batches and the request budget, its last characters are shown. The Sandbox account
// is not stored: it always exists.
export const accounts: Migration = {
  version: 3,
  name: '003-accounts',
  up(db) {
    db.exec(`
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        key_id TEXT NOT NULL UNIQUE,
        key_hint TEXT NOT NULL,
        sealed_key BLOB NOT NULL,
        type TEXT CHECK (type IN ('personal', 'agency')),
        agency_name TEXT,
        balance INTEGER,
        checked_at INTEGER,
        refused_at INTEGER,
        created_at INTEGER NOT NULL
      );
    `);
  },
};
