// The sandbox runs faster than real time (ten times in the app); a service does not. Every span the engine
// takes from a guess rather than from an answer (the duration priors, the 10-minute deadline floor, the
// backoff of a failed poll or download, how often it looks around unprompted) is in the time of the job's
// own service: a batch of the sandbox (`Batch.sandbox`) at the sandbox's scale, any other at 1. A real
// account driven at the sandbox's scale would see its jobs go stale after a minute.

export class TimeScales {
  /** Whether each batch looked at runs on the sandbox; a batch never changes service. */
  private readonly known = new Map<string, boolean>();

  constructor(
    /** Whether a batch runs on the sandbox (`Batch.sandbox`); asked once per batch. */
    private readonly lookUp: (batchId: string) => boolean,
    /** How much faster than real time the sandbox runs: 0.1 is ten times faster. */
    readonly sandbox: number,
  ) {}

  isSandbox(batchId: string): boolean {
    let sandbox = this.known.get(batchId);
    if (sandbox === undefined) {
      sandbox = this.lookUp(batchId);
      this.known.set(batchId, sandbox);
    }
    return sandbox;
  }

  /** What multiplies the guessed spans of this batch's jobs. */
  of(batchId: string): number {
    return this.isSandbox(batchId) ? this.sandbox : 1;
  }
}
