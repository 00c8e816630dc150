import type { BatchStatus, PauseReason } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import { type BatchId, newBatchId, newProductId, type ProductId } from './ids.ts';
import { type BatchRow, type ProductRow, toBatch, toProduct } from './rows.ts';
import { ACTIVE_JOB_STATES, canMoveBatch } from './states.ts';
import type { Batch, EarlierShot, NewBatch, NewProduct, Product } from './types.ts';

// Batches and their products: what the user asked for, and where each batch stands. A batch's status moves
// along the batch transition table; its jobs are the job store's.

export class BatchStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Writes the batch row; its products and jobs are added by the queue store in the same transaction. */
  insert(input: Omit<NewBatch, 'products'>, quotedCredits: number): BatchId {
    const id = newBatchId();
    const now = this.now();
    this.db
      .prepare(
        `INSERT INTO batches (id, name, created_at, account_id, base_url, key_id, key_hint, sandbox, library_dir,
           shoot_settings, video_settings, videos_after_review, quoted_credits, status, status_reason, updated_at,
           brand_id, credit_cap, agent_client)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', NULL, ?, ?, ?, ?)`,
      )
      .run(
        id,
        input.name,
        now,
        input.accountId,
        input.baseUrl,
        input.keyId,
        input.keyHint,
        input.sandbox ? 1 : 0,
        input.libraryDir,
        JSON.stringify(input.shoot),
        input.video ? JSON.stringify(input.video) : null,
        input.videosAfterReview ? JSON.stringify(input.videosAfterReview) : null,
        quotedCredits,
        now,
        input.brandId ?? null,
        input.creditCap ?? null,
        input.agentClient ?? null,
      );
    return id;
  }

  insertProduct(batchId: BatchId, position: number, product: NewProduct, fingerprint: string): ProductId {
    const id = newProductId();
    this.db
      .prepare(
        `INSERT INTO products (id, batch_id, position, name, source_dir, rel_path, fingerprint, photos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        batchId,
        position,
        product.name,
        product.sourceDir,
        product.path ?? '',
        fingerprint,
        JSON.stringify(product.photos),
      );
    return id;
  }

  get(id: string): Batch | null {
    const row = this.db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?').get(id);
    return row ? toBatch(row) : null;
  }

  all(): Batch[] {
    return this.db.prepare<[], BatchRow>('SELECT * FROM batches ORDER BY created_at').all().map(toBatch);
  }

  /** Batches whose jobs still have work, or that the user has not seen finish. */
  unfinished(): Batch[] {
    return this.db
      .prepare<[], BatchRow>("SELECT * FROM batches WHERE status != 'finished' ORDER BY created_at")
      .all()
      .map(toBatch);
  }

  setStatus(
    id: BatchId,
    status: BatchStatus,
    reason: PauseReason | null = null,
    message: string | null = null,
  ): void {
    const batch = this.get(id);
    if (!batch) throw new Error(`no batch ${id}`);
    if (batch.status === status && batch.statusReason === reason && batch.statusMessage === message) return;
    if (batch.status !== status && !canMoveBatch(batch.status, status)) {
      throw new Error(`batch ${id} cannot move from ${batch.status} to ${status}`);
    }
    this.db
      .prepare(
        'UPDATE batches SET status = ?, status_reason = ?, status_message = ?, updated_at = ? WHERE id = ?',
      )
      .run(status, reason, message, this.now(), id);
  }

  /** The name of the client brand the batch is billed to; null when none. */
  brandName(id: BatchId): string | null {
    return (
      this.db
        .prepare<[string], { name: string }>(
          'SELECT brands.name FROM batches JOIN brands ON brands.id = batches.brand_id WHERE batches.id = ?',
        )
        .get(id)?.name ?? null
    );
  }

  /** The user's pause: nothing new is created; what was created is still followed and downloaded. */
  pause(id: BatchId): void {
    this.setStatus(id, 'paused', 'user');
  }

  /** Lets a paused batch create jobs again (after a pause, a top-up of credits, or a new key). */
  resume(id: BatchId): void {
    if (this.get(id)?.status === 'paused') this.setStatus(id, 'running', null);
  }

  /** Jobs added to a batch (videos from the picks, a reshoot: `QueueStore.addJobs`) add to its quote. */
  addQuoted(id: BatchId, credits: number): void {
    this.db
      .prepare('UPDATE batches SET quoted_credits = quoted_credits + ?, updated_at = ? WHERE id = ?')
      .run(credits, this.now(), id);
  }

  /** Where the batch's results are: a library found again after it was moved. */
  setLibraryDir(id: BatchId, libraryDir: string): void {
    this.db
      .prepare('UPDATE batches SET library_dir = ?, updated_at = ? WHERE id = ?')
      .run(libraryDir, this.now(), id);
  }

  /** Every library a batch's results went to: Adbatch's own folders, never scanned as products. */
  libraryDirs(): string[] {
    return this.db
      .prepare<[], { library_dir: string }>('SELECT DISTINCT library_dir FROM batches')
      .all()
      .map((row) => row.library_dir);
  }

  /**
   * Whether a batch was shot from a photo with these bytes (sha256): the designer's own, whatever else
   * holds the same bytes (an export's copy of its source photos). A scan of the products' JSON: asked only
   * for the few photos that matched something Adbatch wrote.
   */
  shotFrom(sha256: string): boolean {
    return (
      this.db
        .prepare<[string], 1>('SELECT 1 FROM products WHERE instr(photos, ?) > 0 LIMIT 1')
        .pluck()
        .get(`"hash":"${sha256}"`) !== undefined
    );
  }

  /** A finished batch runs again when one of its jobs is sent or followed again. */
  reopen(id: BatchId): void {
    if (this.get(id)?.status === 'finished') this.setStatus(id, 'running', null);
  }

  products(batchId: string): Product[] {
    return this.db
      .prepare<[string], ProductRow>('SELECT * FROM products WHERE batch_id = ? ORDER BY position')
      .all(batchId)
      .map(toProduct);
  }

  productCount(batchId: string): number {
    return (
      this.db
        .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM products WHERE batch_id = ?')
        .get(batchId)?.n ?? 0
    );
  }

  /** These products, in no particular order; ids of no product are left out. */
  productsNamed(ids: readonly string[]): Product[] {
    return this.db
      .prepare<[string], ProductRow>('SELECT * FROM products WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids))
      .map(toProduct);
  }

  product(id: string): Product | null {
    const row = this.db.prepare<[string], ProductRow>('SELECT * FROM products WHERE id = ?').get(id);
    return row ? toProduct(row) : null;
  }

  /**
   * Products of earlier batches with these fingerprints that were shot (every job done) or are being shot
   * (a job still active). Failed, cancelled or abandoned ones do not count: nothing came of them.
   */
  earlierShots(fingerprints: readonly string[]): Map<string, EarlierShot> {
    const found = new Map<string, EarlierShot>();
    const active = ACTIVE_JOB_STATES.map(() => '?').join(', ');
    const query = this.db.prepare<
      string[],
      {
        product_name: string;
        batch_id: BatchId;
        batch_name: string;
        done: number;
        active: number;
        jobs: number;
      }
    >(
      `SELECT p.name AS product_name, b.id AS batch_id, b.name AS batch_name,
         SUM(j.state = 'done') AS done, SUM(j.state IN (${active})) AS active, COUNT(*) AS jobs
       FROM products p JOIN batches b ON b.id = p.batch_id JOIN jobs j ON j.product_id = p.id
       WHERE p.fingerprint = ?
       GROUP BY p.id ORDER BY b.created_at DESC`,
    );
    for (const fingerprint of new Set(fingerprints)) {
      for (const row of query.all(...ACTIVE_JOB_STATES, fingerprint)) {
        const state = row.done === row.jobs ? 'done' : row.active > 0 ? 'running' : null;
        if (!state) continue;
        if (found.get(fingerprint)?.state === 'done') continue;
        found.set(fingerprint, {
          batchId: row.batch_id,
          batchName: row.batch_name,
          productName: row.product_name,
          state,
        });
      }
    }
    return found;
  }
}
