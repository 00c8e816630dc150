import { toNewProduct } from '../ingest/scan.ts';
import type { IngestPlan } from '../ingest/types.ts';
import type { NewProduct } from '../queue/types.ts';
import { AppError } from './errors.ts';

// Scans are held in memory between the New batch screen's scan, its quotes and its Start: the renderer
// refers to them by id and never sends paths back. Only the latest few are kept.

const KEPT_SCANS = 20;

export class ScanHolder {
  private readonly scans = new Map<string, IngestPlan>();
  private count = 0;

  hold(plan: IngestPlan): string {
    const scanId = `s${++this.count}`;
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

  products(scanId: string): NewProduct[] {
    return this.get(scanId).products.map(toNewProduct);
  }
}
