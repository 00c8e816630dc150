import { megabytes } from '../shared/byte-words.ts';
import type { BatchProgress, BatchSummary } from '../shared/models.ts';
import { needsYouWords } from '../shared/words.ts';
import { EXIT } from './exit-codes.ts';
import type { CliCore } from './open-core.ts';
import { ProgressPrinter } from './progress.ts';
import { oneLine, writeControls } from './terminal-text.ts';

// What `run` and `resume` share once their batches are handed to the core: live progress and notices from
// the core's events, Ctrl+C that lets requests in flight settle, the manifests, and the exit status.

export interface FollowOptions {
  quiet?: boolean;
}

/**
 * Follows the batches `start` hands to the core, listening from before it is called: the answer to a create
 * waits for the database's backup (batch-maker.ts), and a short upload begins and ends meanwhile.
 */
export async function follow(
  cli: CliCore,
  start: () => Promise<readonly string[]>,
  options: FollowOptions = {},
): Promise<number> {
  const { core } = cli;
  let batchIds: readonly string[] | null = null;
  // What came before `start` answered, kept until it says which batches are ours.
  const early: Array<() => void> = [];
  const ours = (id: string, deliver: () => void): boolean => {
    if (batchIds === null) early.push(() => ours(id, deliver));
    else if (batchIds.includes(id)) deliver();
    return false;
  };
  const progress = new ProgressPrinter([]);
  const names = new Map<string, string>();
  // An upload's progress line stays open (\r) until it ends; anything printed meanwhile starts a new line.
  let uploadLineOpen = false;
  const uploading = new Map<string, number>();
  const noticed = new Set<string>();
  const printLine = (text: string) => {
    process.stderr.write(`${uploadLineOpen || progress.drawing ? '\n' : ''}${text}\n`);
    uploadLineOpen = false;
    progress.interrupted();
  };
  const onProgress = (batch: BatchProgress) => {
    names.set(batch.id, batch.name);
    progress.record(batch);
    if (options.quiet) return;
    if (batch.upload) {
      const { done, total, bytesSent } = batch.upload;
      uploading.set(batch.id, total);
      writeControls(process.stderr, `\rUploading photos: ${done}/${total} (${megabytes(bytesSent)} sent)`);
      uploadLineOpen = true;
      return;
    }
    // The core shows an upload only while it runs: its end is the first progress without it.
    const total = uploading.get(batch.id);
    if (total === undefined) return;
    uploading.delete(batch.id);
    if (batch.statusReason !== 'hosting')
      writeControls(process.stderr, `\rUploading photos: ${total}/${total}, done\n`);
    else if (uploadLineOpen) process.stderr.write('\n');
    uploadLineOpen = false;
  };
  const offs = [
    core.events.on('batches:progress', (batch) => ours(batch.id, () => onProgress(batch))),
    core.events.on('batches:notice', ({ id, message }) =>
      ours(id, () => {
        printLine(`${names.get(id) ?? id}: ${message}`);
        noticed.add(message);
      }),
    ),
  ];
  try {
    batchIds = await start();
  } catch (error) {
    for (const off of offs) off();
    throw error;
  }
  progress.show(batchIds);
  // What was said before any progress named the batches (a redownload's count of results not on disk) is
  // said under their names, not their ids.
  for (const id of batchIds) {
    if (!names.has(id)) names.set(id, (await cli.call('batches:get', { id })).name);
  }
  for (const deliver of early.splice(0)) deliver();
  let interrupted = false;
  let interrupt: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    interrupt = () => {
      interrupted = true;
      printLine('Stopping: letting requests in flight finish. `adbatch resume` continues.');
      resolve();
    };
  });
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const ticker = options.quiet ? null : setInterval(() => progress.update(), 250);
  try {
    await Promise.race([core.whenIdle(), stopped]);
  } finally {
    if (ticker) clearInterval(ticker);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    for (const off of offs) off();
  }
  const summaries = await Promise.all(batchIds.map((id) => cli.call('batches:get', { id })));
  const { fault, databaseDamaged } = (await cli.call('app:info')).queue;
  await core.stop();
  for (const summary of summaries) progress.record(summary);
  if (!options.quiet) progress.update(true);
  if (uploadLineOpen) process.stderr.write('\n');
  for (const summary of summaries) {
    if (!options.quiet) process.stdout.write(`Manifest: ${summary.resultsFolder}/manifest.json\n`);
    // A batch that was already paused for its library when this run began has said nothing yet.
    const why = summary.statusReason === 'library' ? summary.statusMessage : null;
    if (why && ![...noticed].some((message) => message.includes(why))) {
      process.stderr.write(`${summary.name}: Paused: ${why}\n`);
    }
    const doubt = needsYouWords(summary);
    if (doubt) process.stderr.write(`${needsYouLine(summary, doubt)}\n`);
  }
  if (interrupted) return EXIT.interrupted;
  // Said once per batch as it stopped; the exit says the data folder needs mending before anything moves.
  if (databaseDamaged) return EXIT.damagedDatabase;
  return fault ? EXIT.pausedLocally : outcome(summaries);
}

/** "Spring: needs you: 2 shoots or videos in doubt… adbatch recheck b_1 checks all again (free).". */
export function needsYouLine(batch: Pick<BatchSummary, 'id' | 'name'>, doubt: string): string {
  return `${oneLine(batch.name)}: needs you: ${doubt} adbatch recheck ${batch.id} checks all again (free); adbatch status ${batch.id} lists each job's decisions.`;
}

/** The exit status for these batches, from the states their jobs ended in. */
export function outcome(batches: readonly BatchSummary[]): number {
  let partial = false;
  let anyDone = false;
  let needsYou = false;
  for (const batch of batches) {
    if (batch.statusReason === 'unauthorized') return EXIT.failed;
    const paused = batch.status === 'paused';
    // The storage refused or could not be reached; the reason was printed as the batch paused.
    if (paused && batch.statusReason === 'hosting') return EXIT.failed;
    // An input the service would fetch did not answer: nothing more was sent; said as the batch paused.
    if (paused && batch.statusReason === 'input_unreachable') return EXIT.failed;
    if (paused && batch.statusReason === 'insufficient_credits') return EXIT.stoppedOnCredits;
    if (paused && batch.statusReason === 'library') return EXIT.pausedLocally;
    if (paused && batch.statusReason === 'budget') return EXIT.stoppedAtCap;
    // A restored backup's batch waits for a person's decision (`adbatch resume --yes`), as a job in doubt does.
    if (paused && batch.statusReason === 'restored') return EXIT.partial;
    // Credits in doubt (an unknown outcome, a job past its deadline, results owed) are never a mere partial.
    needsYou ||= batch.attention > 0;
    // Owed results were made and paid for: `adbatch redownload` fetches them, so they count as made.
    anyDone ||= batch.done > 0 || (batch.states.owed ?? 0) > 0;
    if (batch.done + (batch.states.cancelled ?? 0) !== batch.jobs) partial = true;
  }
  if (needsYou) return EXIT.needsYou;
  if (!partial) return EXIT.ok;
  return anyDone ? EXIT.partial : EXIT.failed;
}
