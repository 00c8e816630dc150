import type { Migration } from '../migrate.ts';

// Times are epoch milliseconds; money is integer credits; settings and request bodies are JSON text.
export const initial: Migration = {
  version: 1,
  name: '001-initial',
  up(db) {
    db.exec(`
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        base_url TEXT NOT NULL,
        key_id TEXT NOT NULL,
        key_hint TEXT NOT NULL,
        sandbox INTEGER NOT NULL DEFAULT 0,
        library_dir TEXT NOT NULL,
        shoot_settings TEXT NOT NULL,
        video_settings TEXT,
        quoted_credits INTEGER NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE products (
        id TEXT PRIMARY KEY,
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        source_dir TEXT NOT NULL,
        photos TEXT NOT NULL
      );
      CREATE INDEX products_batch ON products(batch_id, position);

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        product_id TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('shoot', 'video')),
        after_job_id TEXT REFERENCES jobs(id),
        settings TEXT NOT NULL,
        request TEXT,
        price INTEGER NOT NULL CHECK (price >= 0),
        state TEXT NOT NULL,
        remote_id TEXT UNIQUE,
        remote_status TEXT,
        credits_charged INTEGER NOT NULL DEFAULT 0,
        credits_refunded INTEGER NOT NULL DEFAULT 0,
        posts INTEGER NOT NULL DEFAULT 0,
        polls INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        submitted_at INTEGER,
        accepted_at INTEGER,
        finished_at INTEGER,
        next_poll_at INTEGER,
        deadline_at INTEGER,
        failure_code TEXT,
        failure_message TEXT
      );
      CREATE INDEX jobs_batch_state ON jobs(batch_id, state);
      CREATE INDEX jobs_state_poll ON jobs(state, next_poll_at);

      CREATE TABLE job_events (
        id INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        type TEXT NOT NULL,
        value TEXT NOT NULL,
        detail TEXT
      );
      CREATE INDEX job_events_job ON job_events(job_id, id);

      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('charge', 'refund')),
        credits INTEGER NOT NULL CHECK (credits >= 0),
        balance_after INTEGER
      );
      CREATE INDEX ledger_batch ON ledger(batch_id);

      CREATE TABLE assets (
        id INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('image', 'thumbnail', 'video')),
        idx INTEGER NOT NULL,
        url TEXT NOT NULL,
        path TEXT NOT NULL,
        state TEXT NOT NULL,
        bytes INTEGER,
        sha256 TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        UNIQUE (job_id, kind, idx)
      );
      CREATE INDEX assets_state ON assets(state);

      CREATE TABLE request_log (
        key_id TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX request_log_key_at ON request_log(key_id, at);

      CREATE TABLE duration_samples (
        class TEXT NOT NULL,
        seconds REAL NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX duration_samples_class ON duration_samples(class, at);
    `);
  },
};
