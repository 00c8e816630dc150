import type { Migration } from '../migrate.ts';

// A result's focus point (issue 29): where the designer put its subject in Review, as fractions of the
// width and height from the top left, so that an export's crops centre on it (core/export/render.ts). A
// table of its own, not a column of review_decisions: a result left undecided loses its decision row, not
// its focus. Results without a row crop by sharp's attention strategy.
export const resultFocus: Migration = {
  version: 15,
  name: '015-result-focus',
  up(db) {
    db.exec(`
      CREATE TABLE result_focus (
        asset_id INTEGER PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
        x REAL NOT NULL CHECK (x >= 0 AND x <= 1),
        y REAL NOT NULL CHECK (y >= 0 AND y <= 1),
        set_at INTEGER NOT NULL
      );
    `);
  },
};
