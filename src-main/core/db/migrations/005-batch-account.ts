import type { Migration } from '../migrate.ts';

// A batch refers to its account by the account's id (`sandbox` for the Sandbox's), not only by its key's
// hash. A key this computer does not keep (a batch made with ADBATCH_API_KEY, an account removed while its
// batches remain) is still an account row, with no sealed key: its batches keep their account, and adding
// the key again in Settings gives them back their key. `key_id` stays on the batch: it is the key the
// jobs were sent with, which the key's request budget is filed under.
export const batchAccount: Migration = {
  version: 5,
  name: '005-batch-account',
  up(db) {
    db.exec(`
      CREATE TABLE accounts_new (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        key_id TEXT NOT NULL UNIQUE,
        key_hint TEXT NOT NULL,
        sealed_key BLOB,
        type TEXT CHECK (type IN ('personal', 'agency')),
        agency_name TEXT,
        balance INTEGER,
        checked_at INTEGER,
        refused_at INTEGER,
        created_at INTEGER NOT NULL
      );
      INSERT INTO accounts_new SELECT * FROM accounts;
      DROP TABLE accounts;
      ALTER TABLE accounts_new RENAME TO accounts;

      INSERT INTO accounts (id, name, base_url, key_id, key_hint, sealed_key, created_at)
        SELECT 'a_' || lower(hex(randomblob(8))), 'Key ' || key_hint, base_url, key_id, key_hint, NULL,
          MIN(created_at)
        FROM batches
        WHERE sandbox = 0 AND key_id NOT IN (SELECT key_id FROM accounts)
        GROUP BY key_id;

      ALTER TABLE batches ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
      UPDATE batches SET account_id = CASE
        WHEN sandbox = 1 THEN 'sandbox'
        ELSE (SELECT id FROM accounts WHERE accounts.key_id = batches.key_id)
      END;
      CREATE INDEX batches_account ON batches(account_id);
    `);
  },
};
