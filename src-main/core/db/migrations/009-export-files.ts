import type { Migration } from '../migrate.ts';

// The files exports placed, per export folder and planned name (core/export/placed-before.ts): what a
// resumed or repeated export checks on disk instead of rendering the file again. Only a hint: a file is
// skipped when its bytes are still these and its render key is the same, and rendered otherwise.
export const exportFiles: Migration = {
  version: 9,
  name: '009-export-files',
  up(db) {
    db.exec(`CREATE TABLE export_files (
      destination TEXT NOT NULL,
      planned_path TEXT NOT NULL,
      render_key TEXT NOT NULL,
      path TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      warnings TEXT NOT NULL,
      PRIMARY KEY (destination, planned_path)
    ) WITHOUT ROWID;`);
  },
};
