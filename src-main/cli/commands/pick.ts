import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type Command, Option } from 'commander';
import { refusalWords } from '../../core/app/fs-refusal.ts';
import type { BatchDetail, ReviewView } from '../../shared/models.ts';
import { REJECT_REASONS, type RejectReason } from '../../shared/vocabulary.ts';
import { EXIT } from '../exit-codes.ts';
import { type CliCore, hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';
import { reviewStanding } from './review.ts';

// `adbatch pick <file...>`, `adbatch reject <file...>`, `adbatch unflag <file...>`: Review's flags from a
// terminal, naming results by their files in a batch's results folder, as a designer finds them in the
// Finder or a viewer (a shell's glob names many at once). The decisions go through `review:decide`, as the
// app's keys and an agent's `review_decide` do, so videos from picks and exports of picks see them. Every
// file is found before anything changes: one that is not a result of any batch refuses the whole command,
// and nothing is flagged.

type Flagging =
  | { verb: 'pick'; change: { flag: 'picked' } }
  | { verb: 'reject'; change: { flag: 'rejected'; rejectReason?: RejectReason } }
  | { verb: 'unflag'; change: { flag: null } };

const DONE_WORDS: Record<Flagging['verb'], string> = {
  pick: 'Picked',
  reject: 'Rejected',
  unflag: 'Unflagged',
};

/** The results of one batch the user named, found by their files. */
interface Named {
  batch: BatchDetail;
  review: ReviewView;
  resultIds: number[];
  files: string[];
}

/** The path as the disk knows it (a link on the way, as macOS's /tmp, followed); as typed when it is not there. */
function real(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

/** `path` inside `folder`, both as the disk knows them. */
function inside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

async function findResults(cli: CliCore, files: readonly string[]): Promise<Named[]> {
  const details: BatchDetail[] = [];
  for (const summary of await cli.call('batches:list')) {
    const detail = await cli.call('batches:get', { id: summary.id });
    details.push({ ...detail, resultsFolder: real(detail.resultsFolder) });
  }
  const named = new Map<string, Named>();
  const unknown: string[] = [];
  for (const typed of files) {
    // Found by the path as the disk knows it, said as the user typed it.
    const [file, said] = [real(typed), resolve(typed)];
    const batch = details.find((detail) => inside(detail.resultsFolder, file));
    if (!batch) {
      unknown.push(`${said} is not in any batch's results folder`);
      continue;
    }
    let entry = named.get(batch.id);
    if (!entry) {
      entry = {
        batch,
        review: await cli.call('review:get', { batchId: batch.id }),
        resultIds: [],
        files: [],
      };
      named.set(batch.id, entry);
    }
    const item = entry.review.items.find((one) => join(batch.resultsFolder, one.file) === file);
    if (!item) {
      unknown.push(`${said} is in ${batch.name}'s folder but is not one of its results`);
      continue;
    }
    if (!entry.resultIds.includes(item.id)) {
      entry.resultIds.push(item.id);
      entry.files.push(item.file);
    }
  }
  if (unknown.length > 0) {
    throw new Error(`nothing was changed: ${unknown.join('; ')}. A result is a shot or video a batch saved.`);
  }
  return [...named.values()];
}

async function flag(files: readonly string[], flagging: Flagging, dataDir: string): Promise<void> {
  if (!hasQueue(dataDir)) {
    process.stderr.write(`adbatch: nothing has run with ${dataDir} yet\n`);
    process.exitCode = EXIT.error;
    return;
  }
  const cli = openCliCore({ dataDir, holderName: 'adbatch', leaseMode: 'none' });
  try {
    for (const { batch, resultIds, files: named } of await findResults(cli, files)) {
      await cli.call('review:decide', { batchId: batch.id, resultIds, change: flagging.change });
      const review = await cli.call('review:get', { batchId: batch.id });
      process.stdout.write(
        `${DONE_WORDS[flagging.verb]} ${named.length} in ${batch.name} (${batch.id}): ${named.join(', ')}. Now ${reviewStanding(review)}.\n`,
      );
    }
  } catch (error) {
    process.stderr.write(`adbatch: ${refusalWords(error)}\n`);
    process.exitCode = EXIT.error;
  } finally {
    await cli.core.stop();
  }
}

export function registerPickCommands(program: Command): void {
  const files = ['<file...>', "results by their files in a batch's results folder"] as const;
  const dataDir = ['--data-dir <dir>', 'where the queue database lives', defaultDataDir()] as const;

  program
    .command('pick')
    .description('Pick results by their files: what videos from picks and exports of picks take.')
    .argument(...files)
    .option(...dataDir)
    .action((paths: string[], options: { dataDir: string }) =>
      flag(paths, { verb: 'pick', change: { flag: 'picked' } }, options.dataDir),
    );

  program
    .command('reject')
    .description(
      'Reject results by their files, with why (a reshoot takes products whose shots are all rejected).',
    )
    .argument(...files)
    .addOption(
      new Option('--reason <why>', "why they are rejected (as Review's keys say it)").choices(REJECT_REASONS),
    )
    .option(...dataDir)
    .action((paths: string[], options: { reason?: RejectReason; dataDir: string }) =>
      flag(
        paths,
        {
          verb: 'reject',
          change: { flag: 'rejected', ...(options.reason ? { rejectReason: options.reason } : {}) },
        },
        options.dataDir,
      ),
    );

  program
    .command('unflag')
    .description('Take the pick or the rejection off results, by their files.')
    .argument(...files)
    .option(...dataDir)
    .action((paths: string[], options: { dataDir: string }) =>
      flag(paths, { verb: 'unflag', change: { flag: null } }, options.dataDir),
    );
}
