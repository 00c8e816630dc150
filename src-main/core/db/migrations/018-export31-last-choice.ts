import type { Migration } from '../migrate.ts';

// What each front end last exported for each client brand (issue 31): the recipes and the folder, so that
// the app's dialog opens as the designer left it for that brand and `adbatch export` without `--to` goes
// where the CLI last sent that brand's files. `brand_key` is the brand's id, '' for batches billed to no
// brand; not a foreign key, since a brand the service no longer lists keeps its memory. `recipes` is a
// JSON array of recipe ids, in the order they ran.
export const exportLastChoice: Migration = {
  version: 18,
  name: '018-export31-last-choice',
  up(db) {
    db.exec(`
      CREATE TABLE export_last_choice (
        brand_key TEXT NOT NULL,
        front TEXT NOT NULL CHECK (front IN ('app', 'cli')),
        recipes TEXT NOT NULL,
        destination TEXT NOT NULL,
        chosen_at INTEGER NOT NULL,
        PRIMARY KEY (brand_key, front)
      ) WITHOUT ROWID;
    `);
  },
};
