import type { Migration } from '../migrate.ts';

// Exports the designer started, so that one a kill interrupted can be resumed with the same names: what was
// asked (`request`, to know a re-run of the same export), the snapshot it runs from (`snapshot`: the results,
// the recipes as they were, the date its names use), which process runs it (`owner_pid`: a `running` export
// whose process is gone was interrupted), its progress and, once ended, its report in short.
export const exportsTable: Migration = {
  version: 8,
  name: '008-exports',
  up(db) {
    db.exec(`CREATE TABLE exports (
      id TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      finished_at INTEGER,
      state TEXT NOT NULL CHECK (state IN ('running', 'done', 'cancelled', 'stopped', 'failed', 'interrupted')),
      destination TEXT NOT NULL,
      request TEXT NOT NULL,
      snapshot TEXT NOT NULL,
      owner_pid INTEGER,
      progress TEXT,
      report TEXT,
      message TEXT
    );
    CREATE INDEX exports_state ON exports (state);`);
  },
};
