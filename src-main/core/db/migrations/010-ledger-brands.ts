import type { Migration } from '../migrate.ts';

// The ledger becomes the record money systems keep (docs/ledger.md): append-only, one entry per movement of
// credits, each naming its job, the attempt (the job's POST it belongs to: a retried job is charged again),
// product, batch, brand, account and key, and the balance the service reported with it. An entry is
// idempotent by (job, attempt, type): a replay after a crash writes nothing twice (INSERT OR IGNORE).
// Triggers refuse UPDATE and DELETE: a correction is a new entry. The table no longer cascades from jobs
// or batches: the money record outlives whatever it describes. The old rows are kept, with their attempt
// numbered in the order they were written.
//
// The agency parts the ledger is read by: client brands (as the service lists them, keyed by base URL and
// the service's id, with a monthly cap in credits), the brand a stored key is pinned to (the user says so:
// the service does not), and a batch's brand and its own cap.
export const ledgerBrands: Migration = {
  version: 10,
  name: '010-ledger-brands',
  up(db) {
    db.exec(`
      CREATE TABLE brands (
        id TEXT PRIMARY KEY,
        base_url TEXT NOT NULL,
        remote_id TEXT NOT NULL,
        name TEXT NOT NULL,
        agency_name TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        monthly_cap INTEGER CHECK (monthly_cap IS NULL OR monthly_cap >= 0),
        created_at INTEGER NOT NULL,
        UNIQUE (base_url, remote_id)
      );

      ALTER TABLE accounts ADD COLUMN brand_id TEXT REFERENCES brands(id) ON DELETE SET NULL;
      ALTER TABLE batches ADD COLUMN brand_id TEXT REFERENCES brands(id);
      ALTER TABLE batches ADD COLUMN credit_cap INTEGER CHECK (credit_cap IS NULL OR credit_cap >= 0);
      CREATE INDEX batches_brand ON batches(brand_id);

      CREATE TABLE ledger_entries (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        type TEXT NOT NULL
          CHECK (type IN ('charge', 'refund', 'at_stake', 'at_stake_charged', 'at_stake_released')),
        credits INTEGER NOT NULL CHECK (credits >= 0),
        job_id TEXT NOT NULL,
        attempt INTEGER NOT NULL CHECK (attempt >= 1),
        job_kind TEXT NOT NULL CHECK (job_kind IN ('shoot', 'video')),
        remote_id TEXT,
        product_id TEXT NOT NULL,
        batch_id TEXT NOT NULL,
        brand_id TEXT,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        balance_after INTEGER,
        note TEXT,
        UNIQUE (job_id, attempt, type)
      );
      INSERT INTO ledger_entries (id, at, type, credits, job_id, attempt, job_kind, remote_id, product_id,
          batch_id, brand_id, account_id, key_id, balance_after)
        SELECT ledger.id, ledger.at, ledger.type, ledger.credits, ledger.job_id,
          ROW_NUMBER() OVER (PARTITION BY ledger.job_id, ledger.type ORDER BY ledger.id),
          jobs.kind, jobs.remote_id, jobs.product_id, ledger.batch_id, NULL, batches.account_id,
          batches.key_id, ledger.balance_after
        FROM ledger JOIN jobs ON jobs.id = ledger.job_id JOIN batches ON batches.id = ledger.batch_id;
      DROP TABLE ledger;
      ALTER TABLE ledger_entries RENAME TO ledger;
      CREATE INDEX ledger_batch ON ledger(batch_id);
      CREATE INDEX ledger_brand_at ON ledger(brand_id, at);
      CREATE INDEX ledger_account_at ON ledger(account_id, at);

      CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'ledger entries are never edited: write a correcting entry'); END;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'ledger entries are never deleted: write a correcting entry'); END;
    `);
  },
};
