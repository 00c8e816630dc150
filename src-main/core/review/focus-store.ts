import type { Db } from '../db/open.ts';

// Results' focus points (migration 015): where the designer put a result's subject in Review, read by the
// export so that its crops centre there (core/export/render.ts). Fractions of the width and height from
// the top left; none set, a crop finds the subject itself.

export interface FocusPoint {
  x: number;
  y: number;
}

/** Sets (or, with null, clears) a result's focus point. */
export function setFocus(db: Db, assetId: number, focus: FocusPoint | null, at: number): void {
  if (focus === null) {
    db.prepare('DELETE FROM result_focus WHERE asset_id = ?').run(assetId);
    return;
  }
  db.prepare(
    `INSERT INTO result_focus (asset_id, x, y, set_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (asset_id) DO UPDATE SET x = excluded.x, y = excluded.y, set_at = excluded.set_at`,
  ).run(assetId, focus.x, focus.y, at);
}

/** A reader of results' focus points, one statement prepared for all. */
export function focusReader(db: Db): (assetId: number) => FocusPoint | null {
  const read = db.prepare<[number], FocusPoint>('SELECT x, y FROM result_focus WHERE asset_id = ?');
  return (assetId) => read.get(assetId) ?? null;
}

/**
 * Every result's focus point at once, for one answer of Review's: the table holds only the points designers
 * set by hand, a few rows, so one read beats a query per result of a 2,000-result batch.
 */
export function focusPoints(db: Db): Map<number, FocusPoint> {
  const rows = db
    .prepare<[], FocusPoint & { asset_id: number }>('SELECT asset_id, x, y FROM result_focus')
    .all();
  return new Map(rows.map((row) => [row.asset_id, { x: row.x, y: row.y }]));
}
