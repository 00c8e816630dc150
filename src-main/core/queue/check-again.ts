import { counted } from '../../shared/counted.ts';
import { AppError } from '../app/errors.ts';
import { checkUnknownOutcomes, type UnknownOutcomeDeps } from '../ledger/unknown-outcomes.ts';
import { batchDecisionsFor, RECHECK_MS, requireBatch } from './decisions.ts';
import { ATTENTION_JOB_STATES } from './states.ts';
import type { Batch, Job } from './types.ts';

// "Check again", and "Check all again" for a batch: every job in doubt asked about once more, by what cannot
// pay twice. A stale job is followed again (its id is known: polled, free); an owed job's results are
// downloaded again (free); a create whose answer was lost is looked for in the service's usage report
// (ledger/unknown-outcomes.ts). Nothing is posted, nothing charged. What was done is said in the batch's
// notes (the app's, the CLI's), and what each job came to on its own line.

/** Asks again about these jobs of `batch`, each in the way its state allows, and says what it did. */
export async function checkAgain(ctx: UnknownOutcomeDeps, batch: Batch, jobs: readonly Job[]): Promise<void> {
  const { store } = ctx;
  const of = (state: Job['state']) => jobs.filter((job) => job.state === state);
  const said: string[] = [];
  const stale = of('stale');
  for (const job of stale) store.jobs.recheck(job.id, ctx.now() + RECHECK_MS);
  if (stale.length > 0) said.push(`Following ${counted(stale.length, 'job')} past the deadline again.`);
  const owed = of('owed');
  for (const job of owed) store.jobs.redownload(job.id);
  if (owed.length > 0) said.push(`Downloading again what ${counted(owed.length, 'job')} owes (free).`);
  const unknown = of('outcome_unknown');
  if (unknown.length > 0) {
    const found = await checkUnknownOutcomes(
      ctx,
      batch,
      unknown.map((job) => job.id),
    );
    said.push(`Of ${counted(unknown.length, 'create')} whose outcome was unknown: ${found}`);
  }
  ctx.events.emit('batches:notice', { id: batch.id, message: `Checked again, free: ${said.join(' ')}` });
}

/** "Check all again": every job of the batch in doubt; refused when none is. */
export async function checkAllAgain(ctx: UnknownOutcomeDeps, id: string): Promise<Batch> {
  const batch = requireBatch(ctx.store, id);
  const inDoubt = ctx.store.jobs.ofBatch(batch.id).filter((job) => ATTENTION_JOB_STATES.includes(job.state));
  if (!batchDecisionsFor(batch, false, inDoubt.length > 0).includes('recheck')) {
    throw new AppError('conflict', `Batch ${id} has nothing in doubt: there is nothing to check again.`);
  }
  await checkAgain(ctx, batch, inDoubt);
  return ctx.store.batches.get(batch.id)!;
}
