import type { RejectReason, ReviewFlag, ReviewLabel, ShootStyle } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import type { AssetId, BatchId, JobId, ProductId } from '../queue/ids.ts';

// The designer's decisions on a batch's results, one row per result once something was decided. Every
// decision is committed as it is made (one transaction for a decision on a selection), so a crash right
// after a key press loses nothing.

/** A result that can be reviewed: a shot's image or a video, downloaded and verified. */
export interface ReviewRow {
  assetId: AssetId;
  batchId: BatchId;
  jobId: JobId;
  productId: ProductId;
  productName: string;
  position: number;
  kind: 'shot' | 'video';
  /** Its shoot's style (a video's is the shoot it was made from); null where that shoot is not known. */
  style: ShootStyle | null;
  index: number;
  /** Relative to the batch's library. */
  path: string;
  /** Of the downloaded file's bytes: what its previews are keyed by. */
  sha256: string | null;
  thumbnailPath: string | null;
  /** When its job finished (when it was made), in ms; its creation while that is not recorded. */
  madeAt: number;
  /** A video's length in seconds as it was ordered; null for a shot. */
  durationSeconds: number | null;
  flag: ReviewFlag | null;
  stars: number;
  rejectReason: RejectReason | null;
  label: ReviewLabel | null;
}

/** A result's decision; all empty means undecided (no row). */
export interface Decision {
  assetId: AssetId;
  flag: ReviewFlag | null;
  stars: number;
  rejectReason: RejectReason | null;
  label: ReviewLabel | null;
}

interface ItemRow {
  asset_id: AssetId;
  batch_id: BatchId;
  job_id: JobId;
  product_id: ProductId;
  product_name: string;
  position: number;
  kind: 'image' | 'video';
  style: ShootStyle | null;
  idx: number;
  path: string;
  sha256: string | null;
  thumbnail_path: string | null;
  made_at: number;
  duration: number | null;
  flag: ReviewFlag | null;
  stars: number | null;
  reject_reason: RejectReason | null;
  label: ReviewLabel | null;
}

const SELECT_ITEMS = `SELECT a.id AS asset_id, j.batch_id, j.id AS job_id, p.id AS product_id,
    p.name AS product_name, p.position, a.kind,
    json_extract(COALESCE(shoot.settings, j.settings), '$.style') AS style, a.idx, a.path, a.sha256,
    thumb.path AS thumbnail_path, json_extract(j.settings, '$.duration') AS duration,
    COALESCE(j.finished_at, j.created_at) AS made_at, d.flag, d.stars, d.reject_reason, d.label
  FROM assets a
  JOIN jobs j ON j.id = a.job_id
  JOIN products p ON p.id = j.product_id
  LEFT JOIN jobs shoot ON shoot.id = j.after_job_id
  LEFT JOIN assets thumb ON thumb.job_id = a.job_id AND thumb.kind = 'thumbnail' AND thumb.idx = a.idx
    AND thumb.state = 'done'
  LEFT JOIN review_decisions d ON d.asset_id = a.id`;
const REVIEWABLE = "a.kind IN ('image', 'video') AND a.state = 'done'";
const ORDER = 'p.position, j.kind, j.rowid, a.idx';

/**
 * Batches whose results are kept in memory (a guess: the one under review, and a few others the designer
 * goes back and forth between; 8,000 results take about 4 MB).
 */
const CACHED_BATCHES = 4;

/** A batch's results as last read, and the database's version they were read at. */
interface CachedItems {
  batchId: BatchId;
  version: string;
  rows: ReviewRow[];
  /** Where each result is in `rows`, so that a decision replaces its row without a pass over the batch. */
  at: Map<AssetId, number>;
}

export class ReviewStore {
  private readonly cached = new Map<BatchId, CachedItems>();
  private readonly changes: () => number;
  private readonly dataVersion: () => number;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.changes = () => totalChanges.get()!;
    const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.dataVersion = () => dataVersion.get()!;
  }

  /**
   * The database's version: every commit on this connection (total_changes) or on another one, another
   * process's included (data_version), changes it. Reading it takes microseconds; reading a batch's 8,000
   * results with their joins takes 40 ms or more, which the first answer of the Review view waited for.
   */
  private version(): string {
    return `${this.changes()}:${this.dataVersion()}`;
  }

  /**
   * Every reviewable result of a batch, in product order, a product's shots before its videos, a reshoot's
   * after the shoot before it. Kept from one call to the next while nothing in the database changed (a
   * download, a reshoot, another process's write: any commit reads them again), and brought up to date in
   * place by this store's own decisions. The rows are shared: never changed by a caller.
   */
  items(batchId: BatchId): readonly ReviewRow[] {
    const version = this.version();
    const known = this.cached.get(batchId);
    this.cached.delete(batchId);
    if (known?.version === version) {
      this.cached.set(batchId, known);
      return known.rows;
    }
    const rows = this.select<[BatchId]>('').all(batchId).map(reviewRow);
    this.cached.set(batchId, {
      batchId,
      version,
      rows,
      at: new Map(rows.map((row, index) => [row.assetId, index])),
    });
    for (const oldest of this.cached.keys()) {
      if (this.cached.size <= CACHED_BATCHES) break;
      this.cached.delete(oldest);
    }
    return rows;
  }

  /**
   * Every reviewable result of these products, whatever their batch (one product across the batches that
   * shot it), newest batch first, each batch's in product order; only the named results when `assetIds` is
   * given. Read through the products' batches' jobs (`+a.state` keeps SQLite from walking every result of
   * every batch by its state index instead): jobs have no index of their product.
   */
  acrossBatches(
    products: ReadonlyArray<{ id: ProductId; batchId: BatchId }>,
    assetIds?: readonly number[],
  ): ReviewRow[] {
    const ids = JSON.stringify(products.map((product) => product.id));
    const order = `ORDER BY b.created_at DESC, b.id, ${ORDER}`;
    if (assetIds) {
      return this.db
        .prepare<[{ products: string; assets: string }], ItemRow>(
          `${SELECT_ITEMS} JOIN batches b ON b.id = j.batch_id
           WHERE a.id IN (SELECT value FROM json_each(@assets)) AND j.product_id IN (SELECT value FROM json_each(@products))
             AND ${REVIEWABLE} ${order}`,
        )
        .all({ products: ids, assets: JSON.stringify(assetIds) })
        .map(reviewRow);
    }
    return this.db
      .prepare<[{ products: string; batches: string }], ItemRow>(
        `${SELECT_ITEMS} JOIN batches b ON b.id = j.batch_id
         WHERE j.batch_id IN (SELECT value FROM json_each(@batches))
           AND j.product_id IN (SELECT value FROM json_each(@products))
           AND a.kind IN ('image', 'video') AND +a.state = 'done' ${order}`,
      )
      .all({
        products: ids,
        batches: JSON.stringify([...new Set(products.map((product) => product.batchId))]),
      })
      .map(reviewRow);
  }

  /**
   * These results of the batch, in the same order; ids that are no reviewable result of it are left out. A
   * decision reads only what it names, so it takes as long on a batch of 8,000 results as on one of 8.
   */
  itemsOf(batchId: BatchId, assetIds: readonly number[]): ReviewRow[] {
    return this.select<[BatchId, string]>('AND a.id IN (SELECT value FROM json_each(?))')
      .all(batchId, JSON.stringify(assetIds))
      .map(reviewRow);
  }

  /** One product's results in the batch. */
  productItems(batchId: BatchId, productId: ProductId): ReviewRow[] {
    return this.select<[BatchId, ProductId]>('AND p.id = ?').all(batchId, productId).map(reviewRow);
  }

  private select<Params extends unknown[]>(narrowing: string) {
    return this.db.prepare<Params, ItemRow>(
      `${SELECT_ITEMS} WHERE j.batch_id = ? AND ${REVIEWABLE} ${narrowing} ORDER BY ${ORDER}`,
    );
  }

  /** The decisions now on these results (undecided ones included, as empty decisions). */
  decisions(assetIds: readonly AssetId[]): Decision[] {
    const read = this.db.prepare<
      [AssetId],
      {
        flag: ReviewFlag | null;
        stars: number;
        reject_reason: RejectReason | null;
        label: ReviewLabel | null;
      }
    >('SELECT flag, stars, reject_reason, label FROM review_decisions WHERE asset_id = ?');
    return assetIds.map((assetId) => {
      const row = read.get(assetId);
      return {
        assetId,
        flag: row?.flag ?? null,
        stars: row?.stars ?? 0,
        rejectReason: row?.reject_reason ?? null,
        label: row?.label ?? null,
      };
    });
  }

  /** Writes these decisions in one transaction; an empty one removes the result's row. */
  apply(decisions: readonly Decision[]): void {
    const upsert = this.db.prepare(
      `INSERT INTO review_decisions (asset_id, flag, stars, reject_reason, label, decided_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (asset_id) DO UPDATE SET flag = excluded.flag, stars = excluded.stars,
         reject_reason = excluded.reject_reason, label = excluded.label, decided_at = excluded.decided_at`,
    );
    const remove = this.db.prepare('DELETE FROM review_decisions WHERE asset_id = ?');
    // Only caches that were up to date until now stay so: the decisions are then the only change.
    const version = this.version();
    const current = [...this.cached.values()].filter((known) => known.version === version);
    this.cached.clear();
    this.db.transaction(() => {
      const at = this.now();
      for (const decision of decisions) {
        const empty =
          decision.flag === null &&
          decision.stars === 0 &&
          decision.rejectReason === null &&
          decision.label === null;
        if (empty) {
          remove.run(decision.assetId);
        } else {
          const { assetId, flag, stars, rejectReason, label } = decision;
          upsert.run(assetId, flag, stars, rejectReason, label, at);
        }
      }
    })();
    const after = this.version();
    for (const known of current) {
      // A new array: one answered before keeps the results as they were then.
      const rows = [...known.rows];
      for (const decision of decisions) {
        const at = known.at.get(decision.assetId);
        if (at === undefined) continue;
        rows[at] = {
          ...rows[at]!,
          flag: decision.flag,
          stars: decision.stars,
          rejectReason: decision.rejectReason,
          label: decision.label,
        };
      }
      this.cached.set(known.batchId, { ...known, version: after, rows });
    }
  }
}

function reviewRow(row: ItemRow): ReviewRow {
  return {
    assetId: row.asset_id,
    batchId: row.batch_id,
    jobId: row.job_id,
    productId: row.product_id,
    productName: row.product_name,
    position: row.position,
    kind: row.kind === 'video' ? 'video' : 'shot',
    style: row.style,
    index: row.idx + 1,
    path: row.path,
    sha256: row.sha256,
    thumbnailPath: row.thumbnail_path,
    madeAt: row.made_at,
    durationSeconds: row.kind === 'video' ? row.duration : null,
    flag: row.flag,
    stars: row.stars ?? 0,
    rejectReason: row.reject_reason,
    label: row.label,
  };
}
