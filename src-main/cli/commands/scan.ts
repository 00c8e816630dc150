import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { DEFAULT_GROUP_PATTERN, parseGroupPattern } from '../../core/app/public-api.ts';
import { counted } from '../../shared/counted.ts';
import type { ProblemView, ScanView } from '../../shared/models.ts';
import { EXIT } from '../exit-codes.ts';
import { hasQueue, openCliCore } from '../open-core.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir, LIBRARY_HELP, sayLibrary } from '../paths.ts';
import { scanUnlessInterrupted } from '../scan-interrupt.ts';
import { oneLine } from '../terminal-text.ts';

// `adbatch scan`: the ingest plan, without spending or uploading anything.

/** Paths under the working folder are shown relative to it; URLs and other paths as they are. */
export function shown(file: string): string {
  if (/^[a-z]+:\/\//i.test(file)) return oneLine(file);
  const rel = relative(process.cwd(), file);
  return oneLine(rel && !rel.startsWith('..') ? rel : file);
}

export function formatProblems(problems: readonly ProblemView[]): string {
  return problems
    .map(
      (problem) =>
        `  ${problem.severity.padEnd(7)}  ${shown(problem.file)}${problem.place ? ` (${problem.place})` : ''}: ${problem.reason}`,
    )
    .join('\n');
}

function formatPlan(plan: ScanView): string {
  const photos = plan.products.reduce((sum, product) => sum + product.photos.length, 0);
  const converted = plan.products.reduce(
    (sum, product) => sum + product.photos.filter((photo) => photo.converted).length,
    0,
  );
  const errors = plan.problems.filter((problem) => problem.severity === 'error').length;
  const lines = [
    `${counted(plan.products.length, 'product')}, ${counted(photos, 'photo')}` +
      `${converted ? ` (${converted} converted)` : ''}; ${errors} rejected, ` +
      `${counted(plan.problems.length - errors, 'warning')}, ${counted(plan.skipped, 'file')} skipped`,
  ];
  const adbatchFolders = plan.skippedFiles.filter((skipped) => skipped.adbatchFolder);
  if (adbatchFolders.length > 0) {
    lines.push('', 'Skipped: what Adbatch wrote');
    for (const folder of adbatchFolders) lines.push(`  ${shown(folder.file)}: ${folder.reason}`);
  }
  for (const product of plan.products) {
    // The folder only where it says more than the name (a product grouped from loose photos by SKU).
    const name = oneLine(product.name);
    lines.push('', product.path === product.name ? name : `${name}  (${oneLine(product.path)})`);
    product.photos.forEach((photo, index) => {
      const size = photo.width && photo.height ? `${photo.width} x ${photo.height}` : 'size unknown';
      lines.push(
        `  ${index === 0 ? 'hero' : '    '}  ${shown(photo.file)}  ${size}${photo.converted ? `  (${photo.converted})` : ''}${photo.realPath ? `  (a link: really ${photo.realPath})` : ''}`,
      );
    });
  }
  if (plan.nested.length > 0) {
    lines.push('', 'Folders inside a product’s folder');
    for (const one of plan.nested) {
      lines.push(`  ${one.folder}: ${one.merged ? `part of ${one.parent}` : 'a product of its own'}`);
    }
  }
  if (plan.dropped.length > 0) {
    lines.push('', 'Dropped: none of their photos can be used');
    for (const product of plan.dropped) lines.push(`  ${product.folder}: ${product.reasons.join('; ')}`);
  }
  if (plan.problems.length > 0) lines.push('', 'Problems', formatProblems(plan.problems));
  return lines.join('\n');
}

/** The document `--json` prints: the issue's shape, plus the codes and conversions for tools. */
function planDocument(plan: ScanView) {
  return {
    products: plan.products.map((product) => ({
      name: product.name,
      path: product.path,
      photos: product.photos.map((photo) => ({
        file: photo.file,
        width: photo.width,
        height: photo.height,
        hash: photo.hash,
        ...(photo.url ? { url: photo.url } : {}),
        ...(photo.converted ? { converted: photo.converted } : {}),
        ...(photo.realPath ? { realPath: photo.realPath } : {}),
      })),
    })),
    problems: plan.problems.map((problem) => ({
      file: problem.file,
      ...(problem.place ? { place: problem.place } : {}),
      reason: problem.reason,
      severity: problem.severity,
      code: problem.code,
    })),
    skipped: plan.skippedFiles,
    nested: plan.nested,
    dropped: plan.dropped,
  };
}

export function registerScanCommand(program: Command): void {
  program
    .command('scan')
    .description('Show what would be shot from these folders, files or catalogs, and what was turned away.')
    .argument('<input...>', 'folders (nested to any depth), photos, or catalogs (.csv, .json)')
    .option('--pattern <regex>', 'groups loose photos into products by SKU', DEFAULT_GROUP_PATTERN)
    .addOption(
      new Option(
        '--subfolders <how>',
        'a folder of photos inside a product’s folder: own product, or part of it',
      )
        .choices(['own', 'parent'])
        .default('own'),
    )
    .option('--json', 'print the plan as one JSON document')
    .option('--library <dir>', `where the thumbnail cache lives: ${LIBRARY_HELP}`)
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .action(
      async (
        inputs: string[],
        options: OutboundFlags & {
          pattern: string;
          subfolders: 'own' | 'parent';
          json?: boolean;
          library?: string;
          dataDir: string;
        },
      ) => {
        parseGroupPattern(options.pattern);
        // The queue tells which products were already shot; where none is, a throwaway one stands in, so
        // that a scan creates no database in the data folder.
        const scratch = hasQueue(options.dataDir) ? null : await mkdtemp(join(tmpdir(), 'adbatch-scan-'));
        const cli = openCliCore({
          dataDir: scratch ?? options.dataDir,
          holderName: 'adbatch scan',
          leaseMode: 'none',
          library: options.library,
          allowHosts: options.allowHost,
          ...(scratch ? { libraryOf: resolve(options.dataDir) } : {}),
        });
        sayLibrary(cli.library);
        try {
          const plan = await scanUnlessInterrupted(cli, {
            inputs,
            pattern: options.pattern,
            subfolders: options.subfolders,
          });
          process.stdout.write(
            options.json ? `${JSON.stringify(planDocument(plan), null, 2)}\n` : `${formatPlan(plan)}\n`,
          );
          const unread = plan.problems.some(
            (problem) => problem.code === 'missing_input' || problem.code === 'bad_catalog',
          );
          process.exitCode = unread ? EXIT.error : EXIT.ok;
        } finally {
          await cli.core.stop();
          if (scratch) await rm(scratch, { recursive: true, force: true });
        }
      },
    );
}
