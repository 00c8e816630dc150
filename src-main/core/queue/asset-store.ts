import { counted } from '../../shared/counted.ts';
import type { Db } from '../db/open.ts';
import type { AssetId, BatchId, JobId } from './ids.ts';
import type { JobStore } from './job-store.ts';
import { type AssetRow, toAsset } from './rows.ts';
import type { Asset } from './types.ts';

// The results a completed job owes: recorded with the job's completion, then downloaded one by one. When
// the last of a job's results is settled, the job is (done, or failed if one can never be fetched).

export interface PendingAsset extends Asset {
  batchId: BatchId;
  libraryDir: string;
}

export class AssetStore {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobStore,
  ) {}

  ofJob(jobId: string): Asset[] {
    return this.db
      .prepare<[string], AssetRow>('SELECT * FROM assets WHERE job_id = ? ORDER BY kind, idx')
      .all(jobId)
      .map(toAsset);
  }

  ofBatch(batchId: string): Asset[] {
    return this.db
      .prepare<[string], AssetRow>(
        'SELECT assets.* FROM assets JOIN jobs ON jobs.id = assets.job_id WHERE jobs.batch_id = ? ORDER BY assets.id',
      )
      .all(batchId)
      .map(toAsset);
  }

  /**
   * A result downloaded with these bytes (sha256), with the product and batch it was made for; null when
   * none was. How the scan knows a copy of one, wherever it was copied (core/ingest/own-content.ts).
   */
  withContent(sha256: string): { kind: Asset['kind']; product: string; batch: string } | null {
    return (
      this.db
        .prepare<[string], { kind: Asset['kind']; product: string; batch: string }>(
          `SELECT assets.kind, products.name AS product, batches.name AS batch FROM assets
           JOIN jobs ON jobs.id = assets.job_id JOIN products ON products.id = jobs.product_id
           JOIN batches ON batches.id = jobs.batch_id
           WHERE assets.sha256 = ? ORDER BY assets.id LIMIT 1`,
        )
        .get(sha256) ?? null
    );
  }

  /** Each batch's cover: its first shot's thumbnail on disk (the path relative to its library), by batch. */
  covers(): Map<string, string> {
    const rows = this.db
      .prepare<[], { batch_id: string; path: string }>(
        `SELECT jobs.batch_id, assets.path FROM assets JOIN jobs ON jobs.id = assets.job_id
         WHERE assets.id IN (SELECT MIN(a.id) FROM assets a JOIN jobs j ON j.id = a.job_id
                             WHERE a.kind = 'thumbnail' AND a.state = 'done' GROUP BY j.batch_id)`,
      )
      .all();
    return new Map(rows.map((row) => [row.batch_id, row.path]));
  }

  /**
   * Results still to download, of these batches' jobs in `downloading`; not those of a batch paused for
   * its library (they wait for the library to be writable again).
   */
  pending(batchIds: readonly string[]): PendingAsset[] {
    return this.db
      .prepare<[string], AssetRow & { library_dir: string; batch_id: BatchId }>(
        `SELECT assets.*, batches.library_dir, batches.id AS batch_id FROM assets
         JOIN jobs ON jobs.id = assets.job_id JOIN batches ON batches.id = jobs.batch_id
         WHERE assets.state = 'pending' AND jobs.state = 'downloading'
           AND jobs.batch_id IN (SELECT value FROM json_each(?))
           AND NOT (batches.status = 'paused' AND batches.status_reason = 'library')
         ORDER BY assets.id`,
      )
      .all(JSON.stringify(batchIds))
      .map((row) => ({ ...toAsset(row), libraryDir: row.library_dir, batchId: row.batch_id }));
  }

  /** Whether results of the batch were already verified in its folder. */
  anySaved(batchId: string): boolean {
    return (
      this.db
        .prepare<[string], { one: number }>(
          `SELECT 1 AS one FROM assets JOIN jobs ON jobs.id = assets.job_id
           WHERE jobs.batch_id = ? AND assets.state = 'done' LIMIT 1`,
        )
        .get(batchId) !== undefined
    );
  }

  /**
   * About how many bytes a batch's owed results will take: each kind at the average size of the results of
   * that kind already downloaded here (a guess of 4 MB an image, 200 kB a thumbnail and 10 MB a video
   * before there are any).
   */
  owedBytes(batchId: string): number {
    return (
      this.db
        .prepare<[string], { bytes: number | null }>(
          `WITH sizes AS (SELECT kind, AVG(bytes) AS average FROM assets WHERE state = 'done' GROUP BY kind)
           SELECT SUM(COALESCE(sizes.average,
             CASE owed.kind WHEN 'video' THEN 10e6 WHEN 'thumbnail' THEN 2e5 ELSE 4e6 END)) AS bytes
           FROM assets AS owed JOIN jobs ON jobs.id = owed.job_id LEFT JOIN sizes ON sizes.kind = owed.kind
           WHERE jobs.batch_id = ? AND owed.state = 'pending'`,
        )
        .get(batchId)?.bytes ?? 0
    );
  }

  /** A result's new address, as the service gave it when asked for its job again (the old one expired). */
  renewUrl(assetId: AssetId, url: string): void {
    this.db.prepare('UPDATE assets SET url = ? WHERE id = ?').run(url, assetId);
  }

  downloaded(assetId: AssetId, bytes: number, sha256: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          "UPDATE assets SET state = 'done', bytes = ?, sha256 = ?, attempts = attempts + 1, error = NULL WHERE id = ?",
        )
        .run(bytes, sha256, assetId);
      this.settle(assetId);
    })();
  }

  /** A failed try: a permanent failure settles the result as failed; any other leaves it pending. */
  failed(assetId: AssetId, error: string, permanent: boolean): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE assets SET state = ?, attempts = attempts + 1, error = ? WHERE id = ?')
        .run(permanent ? 'failed' : 'pending', error, assetId);
      if (permanent) this.settle(assetId);
    })();
  }

  private settle(assetId: AssetId): void {
    const jobId = this.db
      .prepare<[AssetId], { job_id: JobId }>('SELECT job_id FROM assets WHERE id = ?')
      .get(assetId)?.job_id;
    if (!jobId) throw new Error(`no asset ${assetId}`);
    const counts = this.db
      .prepare<[JobId], { pending: number; failed: number; gone: number; error: string | null }>(
        `SELECT SUM(state = 'pending') AS pending, SUM(state = 'failed') AS failed,
           SUM(state = 'failed' AND (error LIKE '%HTTP 404%' OR error LIKE '%HTTP 410%')) AS gone,
           MAX(CASE WHEN state = 'failed' THEN error END) AS error
         FROM assets WHERE job_id = ?`,
      )
      .get(jobId);
    if (!counts || counts.pending > 0) return;
    if (counts.failed === 0) {
      this.jobs.finishDownloads(jobId, null);
      return;
    }
    const credits = this.jobs.get(jobId)?.creditsCharged ?? 0;
    this.jobs.finishDownloads(
      jobId,
      counts.gone > 0
        ? {
            code: 'results_gone',
            message: `The service no longer serves ${counts.gone === 1 ? 'a result' : `${counts.gone} results`} of this job (${counts.error}); it charged ${counted(credits, 'credit')} for it. Download again to try once more.`,
          }
        : {
            code: 'download_failed',
            message: `Paid for (${counted(credits, 'credit')}) but not downloaded: ${counts.error}. Download again to fetch it without paying again.`,
          },
    );
  }
}
