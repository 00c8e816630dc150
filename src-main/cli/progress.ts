import type { BatchProgress } from '../shared/models.ts';
import type { JobState } from '../shared/vocabulary.ts';

// Live progress for a terminal, from the core's `batches:progress` events: one redrawn line per batch on a
// TTY, a line per change (at most every 2 s) otherwise, so logs of CI runs stay readable.

function bar(value: number, total: number, width = 20): string {
  const filled = total === 0 ? width : Math.round((value / total) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export function formatProgress(progress: BatchProgress, startedAt: number, now: number): string {
  const count = (state: JobState) => progress.states[state] ?? 0;
  const failed = count('failed') + count('skipped');
  const finished = progress.done + failed + progress.attention;
  const elapsed = now - startedAt;
  const eta =
    finished > 0 && finished < progress.jobs
      ? duration((elapsed / finished) * (progress.jobs - finished))
      : '--';
  return [
    `[${bar(finished, progress.jobs)}]`,
    `created ${progress.created}/${progress.jobs}`,
    `running ${progress.inFlight}`,
    `done ${progress.done}`,
    `failed ${failed}`,
    ...(progress.attention > 0 ? [`needs you ${progress.attention}`] : []),
    `credits ${progress.creditsSpent}${progress.creditsRefunded > 0 ? ` (refunded ${progress.creditsRefunded})` : ''}`,
    `ETA ${eta}`,
  ].join('  ');
}

export class ProgressPrinter {
  private lastLine = '';
  private lastPrintAt = 0;
  private readonly startedAt = Date.now();
  private readonly tty: boolean;
  private readonly latest = new Map<string, BatchProgress>();

  constructor(
    private batchIds: readonly string[],
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** Whether a redrawn line is on screen, so a notice printed now must start a new line first. */
  get drawing(): boolean {
    return this.tty && this.lastLine !== '';
  }

  /** The batches shown, once known: `follow` listens before the batches it shows are created. */
  show(batchIds: readonly string[]): void {
    this.batchIds = batchIds;
  }

  record(progress: BatchProgress): void {
    if (this.batchIds.includes(progress.id)) this.latest.set(progress.id, progress);
  }

  /** After something else was printed, the next redraw starts below it. */
  interrupted(): void {
    if (this.tty) this.lastLine = '';
  }

  update(force = false): void {
    const now = Date.now();
    const lines = this.batchIds.flatMap((id) => {
      const progress = this.latest.get(id);
      return progress ? [formatProgress(progress, this.startedAt, now)] : [];
    });
    if (lines.length === 0) return;
    const text = lines.join('\n');
    if (this.tty) {
      const up = this.lastLine ? `\x1b[${this.lastLine.split('\n').length}F` : '';
      this.out.write(`${up}${lines.map((line) => `\x1b[2K${line}`).join('\n')}\n`);
      this.lastLine = text;
      return;
    }
    const changed = text.replace(/ETA \S+/g, '') !== this.lastLine.replace(/ETA \S+/g, '');
    if (force || (changed && now - this.lastPrintAt >= 2000)) {
      this.out.write(`${text}\n`);
      this.lastLine = text;
      this.lastPrintAt = now;
    }
  }
}
