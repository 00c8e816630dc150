import type { BatchStatus } from '../../../src-main/shared/models.ts';

const REASONS: Record<string, string> = {
  user: 'paused',
  insufficient_credits: 'out of credits',
  unauthorized: 'key refused',
  hosting: 'photos not uploaded',
  library: 'cannot save results',
  budget: 'stopped at its cap',
};

export function StatusBadge({ status, reason }: { status: BatchStatus; reason: string | null }) {
  const text = status === 'paused' && reason ? (REASONS[reason] ?? 'paused') : status;
  return <span className={`badge badge-${status}`}>{text}</span>;
}
