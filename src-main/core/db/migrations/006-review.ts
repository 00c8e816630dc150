import type { Migration } from '../migrate.ts';

// The designer's decisions on results: a flag (picked or rejected), 0 to 5 stars and, for a rejection, its
// reason. One row per result (a shot's image or a video) once something was decided; none means unreviewed.
export const review: Migration = {
  version: 6,
  name: '006-review',
  up(db) {
    db.exec(`
      CREATE TABLE review_decisions (
        asset_id INTEGER PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
        flag TEXT CHECK (flag IN ('picked', 'rejected')),
        stars INTEGER NOT NULL DEFAULT 0 CHECK (stars BETWEEN 0 AND 5),
        reject_reason TEXT CHECK (reject_reason IN
          ('wrong_colour', 'garbled_text', 'deformed_product', 'wrong_background', 'other')),
        decided_at INTEGER NOT NULL,
        CHECK (reject_reason IS NULL OR flag = 'rejected')
      );
    `);
  },
};
