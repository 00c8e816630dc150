import type { Migration } from '../migrate.ts';

// The scan asks, for every photo it reads, whether its bytes are a result Adbatch downloaded or a file an
// export placed (core/ingest/own-content.ts): a copy of one, wherever it went, is never a product. Looked
// up by sha256 in both tables, once per photo: an index each.
export const ownContentIndex: Migration = {
  version: 23,
  name: '023-own-content-index',
  up(db) {
    db.exec(`
      CREATE INDEX assets_sha256 ON assets(sha256) WHERE sha256 IS NOT NULL;
      CREATE INDEX export_files_sha256 ON export_files(sha256);
    `);
  },
};
