/** Runs at most `concurrency` renders at once: rendering is CPU-bound and the machine may have 2 cores. */
export class WorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private drained: (() => void) | null = null;

  constructor(private readonly concurrency: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.closed) throw new Error('the work queue is closed');
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
      if (this.running === 0) this.drained?.();
    }
  }

  /** Refuses new work, releases what waits (it then throws), and resolves once running work has ended. */
  async close(): Promise<void> {
    this.closed = true;
    for (const release of this.waiting.splice(0)) release();
    if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }
}
