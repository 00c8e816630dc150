import type { BatchProgress } from '../shared/models.ts';
import { batchMoney, countedJobs, moneyWords, outcomeWords } from '../shared/money-words.ts';
import type { JobState } from '../shared/vocabulary.ts';
import { timeLeftWords } from '../shared/words.ts';
import { printable, writeControls } from './terminal-text.ts';

// Live progress for a terminal, from the core's `batches:progress` events: one redrawn line per batch on a
// TTY, a line per change (at most every 2 s) otherwise, so logs of CI runs stay readable.

function bar(value: number, total: number, width = 20): string {
  const filled = total === 0 ? width : Math.round((value / total) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}

/** One batch's line; its ETA last, counted down from the core's moments with this clock (`now`). */
export function formatProgress(progress: BatchProgress, now: number): string {
  const count = (state: JobState) => progress.states[state] ?? 0;
  const finished = progress.done + count('failed') + count('skipped') + progress.attention;
  const left = timeLeftWords(progress, now) ?? '--';
  // A service that does not answer is said instead of a time left, which means nothing then; once every
  // job has ended there is no time left to say (the last line once ended "ETA --").
  const eta = progress.serviceTrouble ? [left] : finished >= progress.jobs ? [] : [`ETA ${left}`];
  return [
    `[${bar(finished, progress.jobs)}]`,
    `created ${progress.created}/${progress.jobs}`,
    `running ${progress.inFlight}`,
    outcomeWords(progress.states, countedJobs(progress)),
    ...(progress.attention > 0 ? [`needs you ${progress.attention}`] : []),
    moneyWords(batchMoney(progress)),
    ...eta,
  ].join('  ');
}

export class ProgressPrinter {
  private lastLine = '';
  private lastPrintAt = 0;
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
      return progress ? [formatProgress(progress, now)] : [];
    });
    if (lines.length === 0) return;
    const text = lines.join('\n');
    if (this.tty) {
      const up = this.lastLine ? `\x1b[${this.lastLine.split('\n').length}F` : '';
      writeControls(this.out, `${up}${lines.map((line) => `\x1b[2K${printable(line)}`).join('\n')}\n`);
      this.lastLine = text;
      return;
    }
    // The ETA alone changing (it counts down) is no reason for a new line in a log.
    const withoutEta = (lines: string) => lines.replace(/ETA .*$/gm, '');
    const changed = withoutEta(text) !== withoutEta(this.lastLine);
    if (force || (changed && now - this.lastPrintAt >= 2000)) {
      this.out.write(`${text}\n`);
      this.lastLine = text;
      this.lastPrintAt = now;
    }
  }
}
