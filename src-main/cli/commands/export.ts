import { join } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { Refusal } from '../../core/app/dispatch.ts';
import type { ExportPlanView, ExportProgressView, ExportRequest } from '../../shared/models.ts';
import { type ExportState, PREFLIGHT_WARNINGS, type PreflightWarning } from '../../shared/vocabulary.ts';
import { EXPORT_STATE_WORDS, exportDoneWords } from '../../shared/words.ts';
import { EXIT } from '../exit-codes.ts';
import { exportTarget, LAST_APP } from '../export-target.ts';
import { openCliCore } from '../open-core.ts';
import { defaultDataDir } from '../paths.ts';

// `adbatch export <batch...|--all> [--to DIR]`: the picked results of batches out as the files each channel
// wants (docs/export.md), through the same handlers as the app. A dry run prints the planned names; a run
// prints a line per file as it goes and what the pre-flight warned about. The same command run again after
// a kill resumes that export under the same names (core keeps it); run again after it finished, it writes
// nothing. It reads beside whatever drives the queue (the app may be open). Without `--to`, it goes where the
// CLI last exported the batches' client brand, with the same recipes, and says so (export-target.ts).

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function starsOption(text: string): number {
  const stars = Number(text);
  if (!Number.isInteger(stars) || stars < 1 || stars > 5) throw new InvalidArgumentError('stars are 1 to 5');
  return stars;
}

function manifestOption(text: string): { csv: boolean; json: boolean } {
  const kinds = text.split(',').map((kind) => kind.trim().toLowerCase());
  for (const kind of kinds) {
    if (kind !== 'csv' && kind !== 'json' && kind !== 'none') {
      throw new InvalidArgumentError('the manifest is csv, json, csv,json or none');
    }
  }
  return { csv: kinds.includes('csv'), json: kinds.includes('json') };
}

/** `--accept-warning not_white,upscaled`: the pre-flight warning kinds written anyway. */
function acceptOption(text: string, previous: PreflightWarning[] = []): PreflightWarning[] {
  const kinds = text.split(',').map((kind) => kind.trim().toLowerCase());
  const known: readonly string[] = PREFLIGHT_WARNINGS;
  for (const kind of kinds) {
    if (!known.includes(kind)) {
      throw new InvalidArgumentError(`the warnings are ${PREFLIGHT_WARNINGS.join(', ')}`);
    }
  }
  return [...new Set([...previous, ...(kinds as PreflightWarning[])])];
}

/** The pre-flight up front: each kind with its count, errors first, and what is held back. */
function preflightLines(plan: ExportPlanView): string {
  const lines = plan.preflight.map(
    (kind) =>
      `${kind.severity === 'error' ? 'error' : kind.accepted ? 'warning (accepted)' : 'warning'}: ${kind.files} file${kind.files === 1 ? '' : 's'} ${kind.words}${kind.severity === 'warning' ? ` [--accept-warning ${kind.kind}]` : ''}\n  e.g. ${kind.example}`,
  );
  if (plan.blocked > 0) lines.push(`${plan.blocked} of ${plan.total} files held back before writing.`);
  return lines.map((line) => `${line}\n`).join('');
}

interface ExportOptions {
  all?: boolean;
  to?: string;
  recipe?: string[];
  picked?: boolean;
  notRejected?: boolean;
  minStars?: number;
  videos?: boolean;
  sources?: boolean;
  name?: string;
  folders?: string;
  zip?: 'per-product' | 'per-recipe';
  manifest?: { csv: boolean; json: boolean };
  bom?: boolean;
  acceptWarning?: PreflightWarning[];
  dryRun?: boolean;
  dataDir: string;
}

/** Why a plan has no file, in the options' own words: a dry run and a run say the same. */
function nothingToExport(selection: ExportRequest['selection']): string {
  const kept =
    selection?.rule === 'not-rejected'
      ? 'not rejected'
      : selection?.rule === 'picked-or-stars'
        ? `picked or given ${selection.minStars} stars or more`
        : 'picked';
  const more =
    selection?.rule === 'picked'
      ? '; pick some in Review or with adbatch pick <file...>, or take more with --not-rejected or --min-stars N'
      : '';
  return `nothing to export: no result of these batches is ${kept} (of those the recipes take)${more}`;
}

function progressLine(progress: ExportProgressView): string {
  const what = progress.phase === 'zips' ? 'zip' : 'file';
  return `${what} ${progress.done}/${progress.total}  ${progress.path}`;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "Export batches' picked results as each channel wants them: recipes, names, checks, a manifest, zips.",
    )
    .argument('[batch...]', 'batch ids')
    .option('--all', 'every batch')
    .option(
      '--to <dir>',
      `the export folder (default: where the CLI last exported this brand, with its recipes; ${LAST_APP}: the app's last)`,
    )
    .option('--recipe <name>', 'a recipe by name or id, again for more (default: Original)', collect)
    .addOption(new Option('--picked', 'the picks only (the default)').conflicts(['notRejected', 'minStars']))
    .addOption(new Option('--not-rejected', 'everything not rejected').conflicts(['minStars']))
    .option('--min-stars <n>', 'the picks, and results with at least N stars', starsOption)
    .option('--videos', 'the videos too (those the selection keeps)')
    .option('--sources', 'the source photos too')
    .option('--name <template>', "every recipe's file-name template: {product}-{n:02}.{ext}")
    .option('--folders <template>', "every recipe's folder template: {recipe}/{product}")
    .addOption(new Option('--zip <by>', 'zips beside the files').choices(['per-product', 'per-recipe']))
    .option('--manifest <kinds>', 'csv, json, csv,json (the default) or none', manifestOption)
    .option('--bom', "CSV files start with UTF-8's byte-order mark, which Excel needs (the default)")
    .option('--no-bom', 'CSV files without the byte-order mark (for scripts)')
    .option(
      '--accept-warning <kinds>',
      `pre-flight warnings to write anyway, comma-separated: ${PREFLIGHT_WARNINGS.join(', ')}`,
      acceptOption,
    )
    .option('--dry-run', 'print the planned names, write nothing')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .action(async (batchIds: string[], options: ExportOptions) => {
      if (batchIds.length > 0 && options.all)
        throw new Error('name the batches to export or --all, not both');
      if (batchIds.length === 0 && !options.all) {
        throw new Error('name the batches to export (their ids, as adbatch status lists them), or --all');
      }
      const cli = openCliCore({ dataDir: options.dataDir, holderName: 'adbatch export', leaseMode: 'none' });
      let cancel: (() => void) | null = null;
      const interrupt = () => cancel?.();
      try {
        const ids = options.all ? (await cli.call('batches:list')).map((batch) => batch.id) : batchIds;
        if (ids.length === 0) throw new Error('there is no batch to export');
        const scope = { batchIds: ids };
        const target = await exportTarget(cli, scope, options.to, options.recipe !== undefined);
        const request: ExportRequest = {
          scope,
          recipes: options.recipe ?? target.recipes ?? ['original'],
          selection: {
            rule: options.notRejected
              ? 'not-rejected'
              : options.minStars !== undefined
                ? 'picked-or-stars'
                : 'picked',
            minStars: options.minStars ?? 0,
            videos: options.videos === true,
            sources: options.sources === true,
          },
          ...(options.name !== undefined ? { fileTemplate: options.name } : {}),
          ...(options.folders !== undefined ? { folderTemplate: options.folders } : {}),
          destination: target.destination,
          zip: options.zip ?? null,
          manifest: {
            ...(options.manifest ?? { csv: true, json: true }),
            ...(options.bom !== undefined ? { bom: options.bom } : {}),
          },
          acceptWarnings: options.acceptWarning ?? [],
          rememberAs: 'cli',
        };
        if (target.line) process.stdout.write(`${target.line}\n`);
        const plan = await cli.call('export:plan', request);
        if (plan.blocking.length > 0) throw new Error(plan.blocking.join('\n'));
        if (plan.total === 0) throw new Error(nothingToExport(request.selection));
        // The pre-flight holds back every file: its kinds, each with the flag that writes them anyway, before
        // the start's refusal (or, where only the pixels measured in memory hold them back, the run's).
        const heldAll = !options.dryRun && plan.blocked === plan.total;
        if (heldAll) process.stdout.write(preflightLines(plan));
        // Said once the export is sure to go (a dry run, or a start that was not refused): a refusal stays one line.
        const notices = () => {
          for (const notice of [...plan.leftOut, ...plan.notices]) process.stderr.write(`note: ${notice}\n`);
        };
        if (options.dryRun) {
          notices();
          const lines = plan.files.map(
            (file) =>
              `${file.path}  ${file.width > 0 ? `${file.width}x${file.height}` : 'copied'}${file.exists ? '  (the name is taken: beside it, or skipped if identical)' : ''}${file.errors.map((error) => `\n  error: ${error}`).join('')}${file.warnings.map((warning) => `\n  warning: ${warning}`).join('')}`,
          );
          const more = plan.total - plan.files.length;
          process.stdout.write(preflightLines(plan));
          process.stdout.write(
            `${plan.total} file${plan.total === 1 ? '' : 's'} into ${request.destination}:\n${lines.join('\n')}\n${more > 0 ? `… and ${more} more\n` : ''}${plan.zips.map((zip) => `zip ${zip}\n`).join('')}`,
          );
          return;
        }
        let id: string | null = null;
        const early: ExportProgressView[] = [];
        const offProgress = cli.core.events.on('export:progress', (progress) => {
          if (id === null) early.push(progress);
          else if (progress.id === id) process.stdout.write(`${progressLine(progress)}\n`);
        });
        const ended = new Promise<ExportState>((resolveEnded) => {
          cli.core.events.on('export:changed', (change) => {
            if (change.id === id) resolveEnded(change.state);
          });
        });
        process.once('SIGINT', interrupt);
        const started = await cli.call('export:start', request);
        id = started.id;
        notices();
        // The pre-flight up front, once the export is sure to run (a refusal stays one line).
        if (!heldAll) process.stdout.write(preflightLines(plan));
        cancel = () => void cli.call('export:cancel', { id: started.id });
        if (started.resumed) process.stdout.write(`Resuming export ${id}: what was finished is kept.\n`);
        for (const progress of early.filter((one) => one.id === id)) {
          process.stdout.write(`${progressLine(progress)}\n`);
        }
        const state = await ended;
        offProgress();
        const detail = await cli.call('export:get', { id });
        // A file held back says its reasons in its one failed line: its warnings again would double the lines.
        for (const file of detail.files) {
          if (file.error) process.stderr.write(`failed: ${file.path}: ${file.error}\n`);
          else
            for (const warning of file.warnings) process.stdout.write(`warning: ${file.path}: ${warning}\n`);
        }
        const manifests = detail.manifests.map((manifest) => join(detail.destination, manifest));
        // A run that went to its end but held files back is said as the app says it ("Partly exported",
        // "Nothing exported"), never "done" alone; exit 2 says it too.
        const said =
          state === 'done' && detail.failed > 0 ? exportDoneWords(detail) : EXPORT_STATE_WORDS[state];
        process.stdout.write(
          `${said}: ${detail.written} written, ${detail.identical} already there, ${detail.failed} failed, into ${detail.destination}${manifests.length > 0 ? `; manifest: ${manifests.join(', ')}` : ''}${detail.zips.length > 0 ? `; zips: ${detail.zips.join(', ')}` : ''}\n`,
        );
        for (const note of detail.notes) process.stdout.write(`note: ${note}\n`);
        if (detail.message) process.stderr.write(`adbatch: ${detail.message}\n`);
        process.exitCode =
          state === 'done'
            ? detail.failed > 0
              ? EXIT.partial
              : EXIT.ok
            : state === 'cancelled' || state === 'interrupted'
              ? EXIT.interrupted
              : state === 'stopped'
                ? EXIT.pausedLocally
                : EXIT.failed;
      } catch (error) {
        // A refusal (a bad template, an unknown recipe, a folder that cannot be written) in one line.
        if (error instanceof Refusal) throw new Error(error.message);
        throw error;
      } finally {
        process.off('SIGINT', interrupt);
        await cli.core.stop();
      }
    });
}
