import type { BatchId } from '../queue/ids.ts';
import type { Decision } from './review-store.ts';

// Undo and redo of review decisions for as long as this process runs (the session), per batch and without a
// limit. Each step keeps the decisions before and after, so undoing writes the old ones back whole.

interface Step {
  before: Decision[];
  after: Decision[];
}

export class ReviewHistory {
  private readonly undos = new Map<BatchId, Step[]>();
  private readonly redos = new Map<BatchId, Step[]>();

  record(batchId: BatchId, before: Decision[], after: Decision[]): void {
    this.stack(this.undos, batchId).push({ before, after });
    this.redos.delete(batchId);
  }

  /** The decisions to write back to undo the last step, or null when there is none. */
  undo(batchId: BatchId): Decision[] | null {
    const step = this.undos.get(batchId)?.pop();
    if (!step) return null;
    this.stack(this.redos, batchId).push(step);
    return step.before;
  }

  /** The decisions to write again to redo the last undone step, or null. */
  redo(batchId: BatchId): Decision[] | null {
    const step = this.redos.get(batchId)?.pop();
    if (!step) return null;
    this.stack(this.undos, batchId).push(step);
    return step.after;
  }

  canUndo(batchId: BatchId): boolean {
    return (this.undos.get(batchId)?.length ?? 0) > 0;
  }

  canRedo(batchId: BatchId): boolean {
    return (this.redos.get(batchId)?.length ?? 0) > 0;
  }

  private stack(stacks: Map<BatchId, Step[]>, batchId: BatchId): Step[] {
    let stack = stacks.get(batchId);
    if (!stack) {
      stack = [];
      stacks.set(batchId, stack);
    }
    return stack;
  }
}
