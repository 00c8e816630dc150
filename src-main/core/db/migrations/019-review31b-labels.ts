import type { Migration } from '../migrate.ts';

// A result's colour label (issue 31), as Lightroom's keys 6 to 9 give one: red, yellow, green or blue, or
// none. A column of the decision, not a table of its own: it is undone and redone with the flag and the
// stars, and a result with nothing decided (no flag, no stars, no label) loses its row as before.
export const reviewLabels: Migration = {
  version: 19,
  name: '019-review31b-labels',
  up(db) {
    db.exec(`
      ALTER TABLE review_decisions ADD COLUMN label TEXT CHECK (label IN ('red', 'yellow', 'green', 'blue'));
    `);
  },
};
