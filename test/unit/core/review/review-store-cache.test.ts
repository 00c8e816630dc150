import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AssetId, BatchId } from '../../../../src-main/core/queue/ids.ts';
import { ReviewStore } from '../../../../src-main/core/review/review-store.ts';
import { newBatch, storePerTest } from '../queue/store-fixtures.ts';

// ReviewStore keeps a batch's results from one call to the next while the database has not changed
// (review-speed2): on a real SQLite file, what must read them again (a write on core's connection, another
// connection's or process's commit) and what must not (nothing written), and a decision brought into the
// kept rows without changing an answer already given.

const ctx = storePerTest();
let review: ReviewStore;
let batchId: BatchId;

/** The batch's shoots done with two results each, written as the engine leaves them. */
function finishShoots(): void {
  ctx.db
    .prepare(
      `INSERT INTO assets (job_id, kind, idx, url, path, state, bytes, sha256, attempts)
       SELECT id, 'image', n.idx, 'https://results.invalid/' || id || n.idx, id || '-' || n.idx || '.jpg',
              'done', 1, NULL, 1
       FROM jobs, (SELECT 0 AS idx UNION ALL SELECT 1) AS n
       WHERE batch_id = ? AND kind = 'shoot'`,
    )
    .run(batchId);
}

beforeEach(async () => {
  batchId = ctx.store.createBatch(newBatch({ video: null })).id;
  finishShoots();
  review = new ReviewStore(ctx.db, () => ctx.clock.now);
});

describe("a batch's results kept between reads", () => {
  it('are the same answer while nothing was written', () => {
    const first = review.items(batchId);
    expect(first).toHaveLength(4);
    expect(review.items(batchId)).toBe(first);
  });

  it("are read again after a write on core's own connection", () => {
    const first = review.items(batchId);
    ctx.db.prepare("UPDATE assets SET state = 'failed' WHERE id = ?").run(first[0]!.assetId);
    const again = review.items(batchId);
    expect(again).not.toBe(first);
    expect(again.map((row) => row.assetId)).toEqual(first.slice(1).map((row) => row.assetId));
  });

  it("are read again after another connection's commit (another process: the CLI beside the app)", () => {
    const first = review.items(batchId);
    const other = new Database(ctx.file);
    try {
      other.prepare("UPDATE assets SET state = 'failed' WHERE id = ?").run(first[1]!.assetId);
    } finally {
      other.close();
    }
    expect(review.items(batchId).map((row) => row.assetId)).not.toContain(first[1]!.assetId);
  });

  it('take a decision made through the store in place, leaving an answer already given as it was', () => {
    const first = review.items(batchId);
    const assetId = first[2]!.assetId as AssetId;
    review.apply([{ assetId, flag: 'picked', stars: 4, rejectReason: null, label: null }]);
    const after = review.items(batchId);
    expect(after).not.toBe(first);
    expect(after[2]).toMatchObject({ assetId, flag: 'picked', stars: 4 });
    expect(first[2]).toMatchObject({ flag: null, stars: 0 });
    // Kept, not read again: a second read is the same array.
    expect(review.items(batchId)).toBe(after);
    // And the same as a store that never kept anything reads from the file.
    expect(new ReviewStore(ctx.db, () => ctx.clock.now).items(batchId)).toEqual(after);
  });
});
