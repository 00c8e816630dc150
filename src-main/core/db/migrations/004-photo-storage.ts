import type { Migration } from '../migrate.ts';

// The S3-compatible storage that makes photos on this computer reachable by a remote service: one row,
// its secret access key stored only sealed (Electron safeStorage), like API keys. And why a batch is paused
// when the reason needs words (a storage failure names the bucket and the cause).
export const photoStorage: Migration = {
  version: 4,
  name: '004-photo-storage',
  up(db) {
    db.exec(`
      CREATE TABLE photo_storage (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        bucket TEXT NOT NULL,
        endpoint TEXT,
        region TEXT,
        prefix TEXT NOT NULL,
        public_base_url TEXT,
        url_ttl_seconds INTEGER NOT NULL CHECK (url_ttl_seconds > 0),
        access_key_id TEXT,
        sealed_secret BLOB,
        secret_hint TEXT,
        checked_at INTEGER NOT NULL,
        CHECK ((access_key_id IS NULL) = (sealed_secret IS NULL))
      );
      ALTER TABLE batches ADD COLUMN status_message TEXT;
    `);
  },
};
