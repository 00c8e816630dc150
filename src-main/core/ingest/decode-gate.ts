/**
 * Ingest's decodes run side by side; a decode whose failure must be read runs alone.
 *
 * Whether a sharp operation fails is its own, but why is not: libvips keeps one error buffer for the whole
 * process (cleared by every operation as it ends) and sharp one queue of warnings. With several photos
 * decoding at once, as a scan does, a failed decode's message is, about one time in ten, another photo's
 * or empty ("Warning treated as error due to failOn setting"). Run with no other decode of ingest beside
 * it, its message is its own.
 */
export class DecodeGate {
  private running = 0;
  private drained: (() => void) | null = null;
  /** Set while a decode runs alone: decodes arriving meanwhile wait for it. */
  private lone: Promise<void> | null = null;

  async beside<T>(work: () => Promise<T>): Promise<T> {
    while (this.lone) await this.lone;
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running === 0) this.drained?.();
    }
  }

  async alone<T>(work: () => Promise<T>): Promise<T> {
    while (this.lone) await this.lone;
    let release!: () => void;
    this.lone = new Promise((resolve) => {
      release = resolve;
    });
    try {
      if (this.running > 0) {
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
      }
      return await work();
    } finally {
      this.drained = null;
      this.lone = null;
      release();
    }
  }
}

/** One gate for the process, as libvips' error buffer is one for the process. */
export const decodeGate = new DecodeGate();
