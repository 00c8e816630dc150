import type { Db } from '../db/open.ts';
import { Caps } from '../ledger/caps.ts';
import { LedgerStore } from '../ledger/ledger-store.ts';
import { quoteShoot, quoteVideo } from '../pricing.ts';
import { IdentityStore } from '../products/identity-store.ts';
import { AssetStore } from './asset-store.ts';
import { BatchStore } from './batch-store.ts';
import { type BatchTotals, collectTotals, type TotalsWithProducts, totalsOf } from './batch-totals.ts';
import { productFingerprint } from './fingerprint.ts';
import type { BatchId } from './ids.ts';
import { JobStore, type NewJob } from './job-store.ts';
import type { Batch, NewBatch } from './types.ts';

// The durable queue over one SQLite file: batches (and their products), jobs (with their history and the
// ledger) and the results they owe, each in a store of its own. What spans them lives here: a new batch
// with its products and jobs in one transaction, and the totals read across them.

export type { LedgerEntry, LedgerTotals, LedgerType } from '../ledger/ledger-store.ts';
export type { PendingAsset } from './asset-store.ts';
export type { BatchTotals } from './batch-totals.ts';
export type { JobEvent, RemoteAcceptance } from './job-store.ts';

export class QueueStore {
  readonly batches: BatchStore;
  readonly jobs: JobStore;
  readonly assets: AssetStore;
  readonly ledger: LedgerStore;
  readonly caps: Caps;
  private readonly identities: IdentityStore;

  constructor(
    readonly db: Db,
    now: () => number,
  ) {
    this.batches = new BatchStore(db, now);
    this.ledger = new LedgerStore(db, now);
    this.caps = new Caps(db, now);
    this.jobs = new JobStore(db, this.batches, this.ledger, now);
    this.assets = new AssetStore(db, this.jobs);
    this.identities = new IdentityStore(db);
  }

  /** A batch, its products and a shoot (and a video after it) per product, priced at today's prices. */
  createBatch(input: NewBatch): Batch {
    const shootPrice = quoteShoot(input.shoot).credits;
    const videoPrice = input.video ? quoteVideo(input.video) : 0;
    const quoted = input.products.length * (shootPrice + videoPrice);
    const id = this.db.transaction((): BatchId => {
      const batchId = this.batches.insert(input, quoted);
      input.products.forEach((product, position) => {
        const fingerprint = productFingerprint(product.photos, input.shoot, input.video);
        const productId = this.batches.insertProduct(batchId, position, product, fingerprint);
        if (product.identity) this.identities.set(productId, product.identity);
        const shootId = this.jobs.insert({
          batchId,
          productId,
          kind: 'shoot',
          afterJobId: null,
          settings: input.shoot,
          price: shootPrice,
        });
        if (input.video) {
          this.jobs.insert({
            batchId,
            productId,
            kind: 'video',
            afterJobId: shootId,
            settings: input.video,
            price: videoPrice,
          });
        }
      });
      return batchId;
    })();
    return this.batches.get(id)!;
  }

  /**
   * Jobs added to a batch after it was made (videos from the picks, a reshoot of products whose shots were
   * all rejected), each at the price it was quoted: in one transaction, the batch's quote grows by their
   * price and a finished batch runs again. A reshoot's results join the product's, in files of their own
   * (`downloads/result-files.ts`).
   */
  addJobs(batchId: BatchId, jobs: ReadonlyArray<Omit<NewJob, 'batchId'>>): void {
    this.db.transaction(() => {
      for (const job of jobs) this.jobs.insert({ batchId, ...job });
      this.batches.addQuoted(
        batchId,
        jobs.reduce((sum, job) => sum + job.price, 0),
      );
      this.batches.reopen(batchId);
    })();
  }

  /** Every batch's totals and product count: the Batches screen asks for all of them at once. */
  allTotals(): Map<BatchId, TotalsWithProducts> {
    return collectTotals(this.db, null);
  }

  totals(batchId: string): BatchTotals {
    return totalsOf(this.db, batchId);
  }
}
