import type { Decision } from './review-store.ts';

// Undo and redo of review decisions for as long as this process runs (the session), per scope (a batch, or
// one product across batches) and without a limit. Each step keeps the decisions before and after, so
// undoing writes the old ones back whole.
//
// Per scope, not per result: an undo in one product's view undoes that view's last step, not a step taken
// in a batch's view meanwhile (which the batch's own undo still finds, and writes back as it was then).

/** `batch:<id>` or `product:<key>`: whose steps these are. */
export type ScopeKey = string;

interface Step {
  before: Decision[];
  after: Decision[];
}

export class ReviewHistory {
  private readonly undos = new Map<ScopeKey, Step[]>();
  private readonly redos = new Map<ScopeKey, Step[]>();

  record(scope: ScopeKey, before: Decision[], after: Decision[]): void {
    this.stack(this.undos, scope).push({ before, after });
    this.redos.delete(scope);
  }

  /** The decisions to write back to undo the last step, or null when there is none. */
  undo(scope: ScopeKey): Decision[] | null {
    const step = this.undos.get(scope)?.pop();
    if (!step) return null;
    this.stack(this.redos, scope).push(step);
    return step.before;
  }

  /** The decisions to write again to redo the last undone step, or null. */
  redo(scope: ScopeKey): Decision[] | null {
    const step = this.redos.get(scope)?.pop();
    if (!step) return null;
    this.stack(this.undos, scope).push(step);
    return step.after;
  }

  canUndo(scope: ScopeKey): boolean {
    return (this.undos.get(scope)?.length ?? 0) > 0;
  }

  canRedo(scope: ScopeKey): boolean {
    return (this.redos.get(scope)?.length ?? 0) > 0;
  }

  private stack(stacks: Map<ScopeKey, Step[]>, scope: ScopeKey): Step[] {
    let stack = stacks.get(scope);
    if (!stack) {
      stack = [];
      stacks.set(scope, stack);
    }
    return stack;
  }
}
