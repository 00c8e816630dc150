import { AppError } from '../app/errors.ts';
import type { NewProduct } from '../queue/types.ts';
import { productKeyOf } from '../review/product-key.ts';
import { toNewProduct, withHero } from './scan.ts';
import type { IngestPlan, PlannedProduct } from './types.ts';

// Scans are held in memory between the New batch screen's scan, its quotes and its Start: the renderer
// refers to them by id and never sends paths back. Only the latest few are kept. What the designer chose on
// a scan outlives it for the session: a product's hero survives a rescan of its folder (the natural order
// would put the first photo back), and a product left out of one scan stays out of the next. "The same
// product" is Review's (review/product-key.ts): its folder, or its catalog SKU or handle, never the name a
// scan gave it.

const KEPT_SCANS = 20;

export class ScanHolder {
  private readonly scans = new Map<string, IngestPlan>();
  /** The photo (its file) chosen as each product's hero. */
  private readonly heroes = new Map<string, string>();
  /** Products left out of the batch. */
  private readonly leftOut = new Set<string>();
  private count = 0;

  hold(plan: IngestPlan): string {
    const scanId = `s${++this.count}`;
    plan.products = plan.products.map((product) => {
      const hero = this.heroes.get(productKeyOf(product));
      const index = hero ? product.photos.findIndex((photo) => photo.file === hero) : -1;
      return index > 0 ? withHero(product, index) : product;
    });
    this.scans.set(scanId, plan);
    for (const old of [...this.scans.keys()].slice(0, Math.max(0, this.scans.size - KEPT_SCANS))) {
      this.scans.delete(old);
    }
    return scanId;
  }

  get(scanId: string): IngestPlan {
    const plan = this.scans.get(scanId);
    if (!plan) throw new AppError('not_found', 'This scan is no longer held: drop the folders again.');
    return plan;
  }

  /** Makes the product's photo at `index` its hero, in this scan and the next ones. */
  chooseHero(scanId: string, name: string, index: number): PlannedProduct {
    const plan = this.get(scanId);
    const at = this.indexOf(plan, name);
    const product = plan.products[at]!;
    if (!product.photos[index])
      throw new AppError('bad_request', `${name} has ${product.photos.length} photos, not ${index + 1}.`);
    const chosen = withHero(product, index);
    plan.products[at] = chosen;
    this.heroes.set(productKeyOf(chosen), chosen.photos[0]!.file);
    return chosen;
  }

  /** Leaves the product out of the batch (or takes it back in), in this scan and the next ones. */
  leaveOut(scanId: string, name: string, out: boolean): void {
    const plan = this.get(scanId);
    const key = productKeyOf(plan.products[this.indexOf(plan, name)]!);
    if (out) this.leftOut.add(key);
    else this.leftOut.delete(key);
  }

  isLeftOut(product: PlannedProduct): boolean {
    return this.leftOut.has(productKeyOf(product));
  }

  /** The products the batch is made of: those not left out. */
  products(scanId: string): NewProduct[] {
    return this.get(scanId)
      .products.filter((product) => !this.isLeftOut(product))
      .map(toNewProduct);
  }

  private indexOf(plan: IngestPlan, name: string): number {
    const index = plan.products.findIndex((product) => product.name === name);
    if (index < 0) throw new AppError('not_found', `This scan has no product "${name}".`);
    return index;
  }
}
