import type { Command } from 'commander';
import type { BatchDetail, BatchSummary, JobView } from '../../shared/models.ts';
import { batchMoney, countedJobs, moneyWords, outcomeWords } from '../../shared/money-words.ts';
import type { BatchDecision, JobDecision } from '../../shared/vocabulary.ts';
import {
  batchStatusWords,
  decisionCostWords,
  jobWords,
  needsYouWords,
  TAKING_LONGER_WORDS,
  timeLeftWords,
  unsettledCredits,
} from '../../shared/words.ts';
import { hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';
import { oneLine } from '../terminal-text.ts';

// `adbatch status`: reads the queue beside whatever drives it (the app, another `adbatch run`), never
// taking it.

/** The command that makes each decision core offers on a job (`jobs:get`'s `decisions`), `<id>` its id. */
const JOB_DECISION_COMMANDS: Record<JobDecision, string> = {
  recheck: 'adbatch recheck <id>',
  retry: 'adbatch retry <id> --yes',
  abandon: 'adbatch abandon <id>',
  redownload: 'adbatch redownload <id>',
};

/** The same for a batch's decisions. */
const BATCH_DECISION_COMMANDS: Record<BatchDecision, string> = {
  pause: 'adbatch pause <id>',
  resume: 'adbatch resume <id>',
  cancel: 'adbatch cancel <id>',
  redownload: 'adbatch redownload <id>',
  recheck: 'adbatch recheck <id>',
};

/** The command that makes a decision on this batch; a restored backup's is resumed only with --yes. */
function batchCommand(decision: BatchDecision, batch: BatchSummary): string {
  if (decision === 'resume' && batch.statusReason === 'restored') return 'adbatch resume --yes';
  return BATCH_DECISION_COMMANDS[decision].replace('<id>', batch.id);
}

/** The decisions core offers, as the commands that make them: "\n      decide: adbatch recheck j_1". */
function decisionHint(commands: string[]): string {
  return commands.length > 0 ? `\n      decide: ${commands.join(' or ')}` : '';
}

function jobHint(job: JobView): string {
  return decisionHint(
    job.decisions.map((decision) => {
      const cost = decisionCostWords(decision, job);
      return `${JOB_DECISION_COMMANDS[decision].replace('<id>', job.id)}${cost ? ` (${cost})` : ''}`;
    }),
  );
}

/**
 * A running batch that no process drives (the `adbatch run` that drove it was stopped, and no app or `adbatch
 * resume` is open) once read "running … waiting on the service for 6 min", though nothing was asking.
 */
const UNDRIVEN_WORDS = 'nothing drives it now: adbatch resume (or the app) goes on with it';

/** `driven`: some process drives the queue (this one only looks). */
function batchLine(batch: BatchSummary, driven: boolean): string {
  const undriven = batch.status === 'running' && !driven;
  const stake = batch.creditsAtStake > 0 ? `, ${unsettledCredits(batch.creditsAtStake)}` : '';
  // Why it is paused, where the badge's words are not enough (what resuming a restored batch may pay twice).
  const why = batch.status === 'paused' && batch.statusMessage ? `\n    ${batch.statusMessage}` : '';
  const timeLeft = undriven ? UNDRIVEN_WORDS : timeLeftWords(batch, Date.now());
  const left = timeLeft ? `; ${timeLeft}` : '';
  // What is in doubt and what is at stake, whatever the status: a finished batch with any says "needs you".
  const doubt = needsYouWords(batch);
  const inDoubt = doubt ? `\n    ${doubt} (adbatch recheck ${batch.id})` : '';
  const status = undriven ? 'interrupted' : batchStatusWords(batch);
  return `${batch.id}  ${status}  ${oneLine(batch.name)}\n    ${outcomeWords(batch.states, countedJobs(batch))}; ${moneyWords(batchMoney(batch), batch.quotedCredits)}${stake}${left}${why}${inDoubt}`;
}

function jobLines(detail: BatchDetail): string[] {
  return detail.items.flatMap((product) =>
    product.jobs.map((job, index) => {
      // A product's shoots come in the order they were added: the ones after the first are reshoots.
      const shootsBefore = product.jobs.slice(0, index).filter((earlier) => earlier.kind === 'shoot').length;
      const kind = job.kind === 'shoot' && shootsBefore > 0 ? `reshoot ${shootsBefore}` : job.kind;
      const failure = job.failureMessage ? `  ${job.failureMessage}` : '';
      const remote = job.remoteStatus ? ` (${job.remoteStatus})` : '';
      const late = job.late ? `, ${TAKING_LONGER_WORDS}` : '';
      return `    ${oneLine(product.name)}  ${kind}  ${jobWords(job)}${late}${remote}  ${job.creditsCharged - job.creditsRefunded}/${job.price} credits${failure}${jobHint(job)}`;
    }),
  );
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Report batches: their jobs by state and their credits; with a batch id, every job of it.')
    .argument('[batch]', 'a batch id (all batches when omitted)')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--json', 'print the report as JSON')
    .action(async (batchId: string | undefined, options: { dataDir: string; json?: boolean }) => {
      if (!hasQueue(options.dataDir)) {
        if (batchId) throw new Error(`no batch ${batchId}: nothing has run with ${options.dataDir} yet`);
        process.stdout.write(options.json ? '[]\n' : `No batches yet in ${options.dataDir}.\n`);
        return;
      }
      const cli = openCliCore({ dataDir: options.dataDir, holderName: 'adbatch status', leaseMode: 'none' });
      try {
        const heldBy = (await cli.call('app:info')).queue.heldBy;
        const driven = heldBy !== null;
        // The JSON is the core's batch view plus who drives the queue now ("adbatch run (pid 4321)"), or null:
        // a script waiting for a `running` batch to end learns that nothing will end it (as the text's
        // `interrupted` says). Added beside the core's fields, so what a script already reads stays.
        const withDriver = <T extends BatchSummary>(batch: T) => ({ ...batch, drivenBy: heldBy });
        if (batchId) {
          const detail = await cli.call('batches:get', { id: batchId }).catch(() => {
            throw new Error(`no batch ${batchId} in ${options.dataDir}`);
          });
          const batchHint = decisionHint(detail.decisions.map((decision) => batchCommand(decision, detail)));
          process.stdout.write(
            options.json
              ? `${JSON.stringify(withDriver(detail), null, 2)}\n`
              : `${[`${batchLine(detail, driven)}${batchHint}`, ...jobLines(detail)].join('\n')}\n`,
          );
          return;
        }
        // Oldest first, as a log reads.
        const batches = (await cli.call('batches:list')).reverse();
        if (options.json) {
          process.stdout.write(`${JSON.stringify(batches.map(withDriver), null, 2)}\n`);
          return;
        }
        if (batches.length === 0) process.stdout.write(`No batches yet in ${options.dataDir}.\n`);
        for (const batch of batches) process.stdout.write(`${batchLine(batch, driven)}\n`);
      } finally {
        await cli.core.stop();
      }
    });
}
