import { ACTIVE_JOB_STATES, ATTENTION_JOB_STATES, type JobState } from '../core/queue/states.ts';
import type { QueueStore } from '../core/queue/store.ts';

// Live progress for a terminal: one redrawn line per batch on a TTY, a line per change (at most every
// 2 s) otherwise, so logs of CI runs stay readable.

interface Snapshot {
  total: number;
  created: number;
  running: number;
  done: number;
  failed: number;
  attention: number;
  spent: number;
  refunded: number;
}

function snapshot(store: QueueStore, batchId: string): Snapshot {
  const totals = store.totals(batchId);
  const count = (...states: readonly JobState[]) =>
    states.reduce((sum, state) => sum + (totals.byState[state] ?? 0), 0);
  return {
    total: totals.jobs,
    created: store.createdCount(batchId),
    running: count(...ACTIVE_JOB_STATES.filter((state) => state !== 'waiting')),
    done: count('done'),
    failed: count('failed', 'skipped'),
    attention: count(...ATTENTION_JOB_STATES),
    spent: totals.charged - totals.refunded,
    refunded: totals.refunded,
  };
}

function bar(value: number, total: number, width = 20): string {
  const filled = total === 0 ? width : Math.round((value / total) * width);
  return `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export function formatProgress(store: QueueStore, batchId: string, startedAt: number, now: number): string {
  const s = snapshot(store, batchId);
  const finished = s.done + s.failed + s.attention;
  const elapsed = now - startedAt;
  const eta =
    finished > 0 && finished < s.total ? duration((elapsed / finished) * (s.total - finished)) : '--';
  return [
    `[${bar(finished, s.total)}]`,
    `created ${s.created}/${s.total}`,
    `running ${s.running}`,
    `done ${s.done}`,
    `failed ${s.failed}`,
    ...(s.attention > 0 ? [`needs you ${s.attention}`] : []),
    `credits ${s.spent}${s.refunded > 0 ? ` (refunded ${s.refunded})` : ''}`,
    `ETA ${eta}`,
  ].join('  ');
}

export class ProgressPrinter {
  private lastLine = '';
  private lastPrintAt = 0;
  private readonly startedAt = Date.now();
  private readonly tty: boolean;

  constructor(
    private readonly store: QueueStore,
    private readonly batchIds: string[],
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  update(force = false): void {
    const now = Date.now();
    const lines = this.batchIds.map((id) => formatProgress(this.store, id, this.startedAt, now));
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
