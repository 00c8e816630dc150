import { createInterface } from 'node:readline/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  DEFAULT_GROUP_PATTERN,
  parseGroupPattern,
  SANDBOX_ACCOUNT_ID,
  SERVICE_RATE_LIMIT,
  sessionAccountId,
} from '../../core/app/public-api.ts';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import { counted } from '../../shared/counted.ts';
import type { CatalogView, QuoteView, ShootSettingsView, VideoSettingsView } from '../../shared/models.ts';
import { priceWords } from '../../shared/money-words.ts';
import {
  MODES,
  QUALITIES,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
  type VideoAspectRatio,
} from '../../shared/vocabulary.ts';
import { defaultBatchName, freshBatchName } from '../batch-name.ts';
import { EXIT } from '../exit-codes.ts';
import { follow } from '../follow.ts';
import { checkedByCommand } from '../help.ts';
import { addHostingOptions, type HostingFlags, hostingFrom } from '../hosting-options.ts';
import { type CliCore, openCliCore } from '../open-core.ts';
import { formatRateLimit, positiveNumber, rateLimitOption, wholeNumber } from '../options.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir, LIBRARY_HELP, sayLibrary } from '../paths.ts';
import { scanUnlessInterrupted } from '../scan-interrupt.ts';
import { setAsideLine } from '../set-aside.ts';
import { oneLine } from '../terminal-text.ts';
import { brandNamed } from './agency.ts';
import { formatProblems, shown } from './scan.ts';
import { INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP, sessionKeyFromEnv } from './session-key.ts';

/** `10s/720p[/with_model][/16:9]` */
export function parseVideo(text: string): VideoSettingsView {
  const [durationText, resolution, ...rest] = text.split('/');
  const duration = Number(durationText?.replace(/s$/, ''));
  if (!VIDEO_DURATIONS.includes(duration as never)) {
    throw new InvalidArgumentError(
      `video duration must be one of ${VIDEO_DURATIONS.map((d) => `${d}s`).join(', ')}`,
    );
  }
  if (!VIDEO_RESOLUTIONS.includes(resolution as never)) {
    throw new InvalidArgumentError(`video resolution must be one of ${VIDEO_RESOLUTIONS.join(', ')}`);
  }
  let mode: VideoSettingsView['mode'] = 'product_only';
  let aspectRatio: VideoAspectRatio | null = null;
  for (const part of rest) {
    if (MODES.includes(part as never)) mode = part as VideoSettingsView['mode'];
    else if (VIDEO_ASPECT_RATIOS.includes(part as never)) aspectRatio = part as VideoAspectRatio;
    else
      throw new InvalidArgumentError(
        `"${part}" is neither a mode (${MODES.join(', ')}) nor a video aspect ratio`,
      );
  }
  return {
    duration: duration as VideoSettingsView['duration'],
    resolution: resolution as VideoSettingsView['resolution'],
    mode,
    aspectRatio,
  };
}

/** Each column says what it counts: the shots, then the credits of the shoot, of the video, of both. */
export function formatQuote(quote: QuoteView, video: boolean, catalog: CatalogView): string {
  const names = quote.products.map((row) => oneLine(row.product));
  const width = Math.max(7, ...names.map((name) => name.length));
  const creditColumns = video ? ['Shoot credits', 'Video credits', 'Total credits'] : ['Credits'];
  const header = [`${'Product'.padEnd(width)}`, 'Shots', ...creditColumns].join('  ');
  const lines = [header, '-'.repeat(header.length)];
  const cells = (values: number[]) =>
    values.map((value, index) => String(value).padStart(creditColumns[index]!.length));
  for (const [index, row] of quote.products.entries()) {
    const shots = `${row.shots}${row.clamped ? '*' : ''}`;
    const credits = video ? [row.shootCredits, row.videoCredits, row.credits] : [row.credits];
    lines.push([names[index]!.padEnd(width), shots.padStart(5), ...cells(credits)].join('  '));
  }
  lines.push('-'.repeat(header.length));
  lines.push(`${'Total'.padEnd(width + 7)}  ${String(quote.credits).padStart(header.length - width - 9)}`);
  lines.push(`Each shoot: ${priceWords(quote.prices.shoot)}`);
  if (quote.prices.video) {
    lines.push(`Each video${video ? '' : ', made later from the picks'}: ${priceWords(quote.prices.video)}`);
  }
  if (quote.products.some((row) => row.clamped)) {
    const sixShotStyles = catalog.styles.filter((style) => style.sixShots).map((style) => style.id);
    lines.push(
      `* 6 shots are made only in the ${sixShotStyles.join(' and ')} styles; this style makes ${catalog.clampedShots}.`,
    );
  }
  if (quote.balance !== null) {
    lines.push(
      `Balance: ${counted(quote.balance, 'credit')}${quote.promised ? `, ${quote.promised} promised to jobs not yet charged` : ''}${quote.shortfall ? `, ${quote.shortfall} short of this batch` : ''}.`,
    );
  }
  return lines.join('\n');
}

export async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

export function registerRunCommand(program: Command): void {
  const command = program
    .command('run')
    .description('Shoot every product in the folders (and make a video of each), then download the results.')
    .argument('<input...>', 'folders (nested to any depth), photos, or catalogs of photo URLs (.csv, .json)')
    .addOption(checkedByCommand(new Option('--style <style>', 'shoot style').choices(SHOOT_STYLES)))
    .addOption(new Option('--shots <n>', 'shots per product').choices(SHOT_COUNTS.map(String)).default('4'))
    .addOption(new Option('--quality <q>', 'image quality').choices(QUALITIES).default('standard'))
    .addOption(
      new Option('--aspect <ratio>', 'aspect ratio of the shots').choices(SHOOT_ASPECT_RATIOS).default('1:1'),
    )
    .addOption(new Option('--mode <mode>', 'with or without a model').choices(MODES).default('product_only'))
    .option('--model-url <url>', 'public image URL of the model (with --mode with_model)')
    .option('--background <hex>', 'background colour hint, e.g. #f4efe6 (studio styles)')
    .option('--video <spec>', 'also make a video of each product: 10s/720p[/with_model][/16:9]', parseVideo)
    .option('--pattern <regex>', 'groups loose photos into products by SKU', DEFAULT_GROUP_PATTERN)
    .option('--include-done', 'also shoot products already shot with the same photos and settings')
    .option('--name <name>', 'a name for the batch')
    .option('--library <dir>', LIBRARY_HELP)
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .option(
      '--budget <credits>',
      'refuse to start a batch that costs more, and never let it spend more (its own cap)',
      wholeNumber,
    )
    .option('--brand <name>', "the agency's client brand the batch is billed to (its monthly cap holds)")
    .addOption(
      new Option('--rate-limit <N/Ws>', 'requests per key in any rolling window')
        .argParser(rateLimitOption)
        .default(SERVICE_RATE_LIMIT, formatRateLimit(SERVICE_RATE_LIMIT)),
    )
    .option('--yes', 'start without asking for confirmation')
    .option('--sandbox', 'use the embedded sandbox: no key, no network, no credits spent')
    .option('--base-url <url>', 'the service address; the key comes from ADBATCH_API_KEY')
    .option(INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP)
    .option(
      '--time-scale <factor>',
      'sandbox speed: a factor on its delays, 0.1 being ten times faster',
      positiveNumber,
      DEFAULT_SANDBOX_TIME_SCALE,
    );
  addHostingOptions(command).action(async (folders: string[], options) => {
    process.exitCode = await runCommand(folders, options);
  });
}

interface RunOptions extends HostingFlags, OutboundFlags {
  style?: ShootSettingsView['style'];
  shots: string;
  quality: ShootSettingsView['quality'];
  aspect: string;
  mode: ShootSettingsView['mode'];
  modelUrl?: string;
  background?: string;
  video?: VideoSettingsView;
  name?: string;
  pattern: string;
  includeDone?: boolean;
  library?: string;
  dataDir: string;
  budget?: number;
  brand?: string;
  rateLimit: { limit: number; windowMs: number };
  yes?: boolean;
  sandbox?: boolean;
  baseUrl?: string;
  insecureHttp?: boolean;
  timeScale: number;
}

/**
 * The brand a batch is billed to, by name among those the key sees. GUESS: a key that sees exactly that one
 * brand is pinned to it (a pinned key sees only its own; the CLI cannot ask, so it takes what Settings would
 * propose). An agency with a single brand and an unpinned key is then counted as pinned: the reconciliation
 * shows it.
 */
async function brandFor(cli: CliCore, accountId: string, name: string): Promise<string> {
  if (accountId === SANDBOX_ACCOUNT_ID) {
    throw new Error('--brand is for agency keys: the Sandbox is a personal account');
  }
  const seen = await cli.call('brands:refresh', { accountId });
  const brand = brandNamed(seen, name);
  if (seen.length === 1) await cli.call('accounts:pin', { id: accountId, brandId: brand.id });
  return brand.id;
}

async function runCommand(folders: string[], options: RunOptions): Promise<number> {
  if (!options.style) throw new Error(`say which --style to shoot in: one of ${SHOOT_STYLES.join(', ')}`);
  if (options.sandbox && options.baseUrl) throw new Error('choose --sandbox or --base-url, not both');
  if (!options.sandbox && !options.baseUrl)
    throw new Error('say which service to use: --sandbox, or --base-url with the key in ADBATCH_API_KEY');
  if (options.mode === 'with_model' && !options.modelUrl)
    throw new Error('--mode with_model needs --model-url');
  if (options.background && !/^#(?:[0-9a-f]{3}){1,2}$/i.test(options.background)) {
    throw new Error('--background must be a hex colour such as #f4efe6');
  }
  parseGroupPattern(options.pattern);
  const sessionKey = options.baseUrl ? sessionKeyFromEnv(options.baseUrl, options) : null;
  const cli = openCliCore({
    dataDir: options.dataDir,
    holderName: 'adbatch run',
    leaseMode: 'require',
    library: options.library,
    sessionKeys: sessionKey ? [sessionKey] : [],
    storage: hostingFrom(options),
    allowHosts: options.allowHost,
    rateLimit: options.rateLimit,
    timeScale: options.sandbox ? options.timeScale : 1,
  });
  sayLibrary(cli.library);
  try {
    // The queue is taken first: a run beside another owner would be refused only after the user said yes.
    await cli.core.start();
    const scan = await scanUnlessInterrupted(cli, { inputs: folders, pattern: options.pattern });
    if (scan.problems.length > 0) process.stderr.write(`${formatProblems(scan.problems)}\n`);
    // What Adbatch wrote, found in what was dropped, is never shot: said in a line each, as the scan says it.
    for (const skipped of scan.skippedFiles.filter((one) => one.adbatchFolder)) {
      process.stderr.write(`skipped: ${shown(skipped.file)}: ${skipped.reason}\n`);
    }
    if (scan.products.length === 0)
      throw new Error(`no usable product photos in ${folders.map(shown).join(', ')}`);
    const accountId = sessionKey ? sessionAccountId(sessionKey.apiKey) : SANDBOX_ACCOUNT_ID;
    const brandId = options.brand ? await brandFor(cli, accountId, options.brand) : null;
    const request = {
      scanId: scan.scanId,
      accountId,
      brandId,
      creditCap: options.budget ?? null,
      shoot: {
        style: options.style,
        shots: Number(options.shots) as ShootSettingsView['shots'],
        quality: options.quality,
        aspectRatio: options.aspect,
        mode: options.mode,
        modelUrl: options.modelUrl ?? null,
        backgroundColor: options.background ?? null,
      },
      video: options.video ?? null,
      includeDone: Boolean(options.includeDone),
    };
    const quote = await cli.call('batches:quote', request);
    if (quote.setAside.length > 0) {
      // With nothing left to shoot the line is the outcome (stdout); beside a batch it is a note (stderr).
      const out = quote.products.length === 0 ? process.stdout : process.stderr;
      out.write(`${setAsideLine(quote.setAside)}\n`);
    }
    if (quote.products.length === 0) return EXIT.ok;
    process.stdout.write(`${formatQuote(quote, request.video !== null, await cli.call('catalog:get'))}\n`);
    for (const cap of quote.caps) {
      process.stdout.write(
        `${cap.label}: ${counted(cap.left, 'credit')} left${cap.passes ? ', not enough for this batch' : cap.warns ? ', past 80 % with this batch' : ''}\n`,
      );
    }
    if (quote.attributionWarning) process.stderr.write(`${quote.attributionWarning}\n`);
    // Said before the batch, while another quality can still be chosen (the recipes of recent exports).
    for (const advice of quote.recipeAdvice) process.stderr.write(`note: ${advice}\n`);
    if (options.budget !== undefined && quote.credits > options.budget) {
      process.stderr.write(
        `This batch costs ${counted(quote.credits, 'credit')}, over the --budget of ${options.budget}. Nothing was started.\n`,
      );
      return EXIT.error;
    }
    if (!options.yes) {
      if (!process.stdin.isTTY) {
        process.stderr.write('Pass --yes to start without a prompt. Nothing was started.\n');
        return EXIT.error;
      }
      if (!(await confirm(`Start this batch for ${counted(quote.credits, 'credit')}? [y/N] `))) {
        process.stderr.write('Nothing was started.\n');
        return EXIT.error;
      }
    }
    const code = await follow(cli, async () => {
      // The default name is to the minute: a re-run in the same minute gets "(2)", not the same name again.
      const name =
        options.name ??
        freshBatchName(
          defaultBatchName(folders, scan, Date.now()),
          (await cli.call('batches:list')).map((batch) => batch.name),
        );
      const batch = await cli.call('batches:create', { ...request, name });
      process.stdout.write(`Batch ${batch.id} started: ${oneLine(batch.name)}\n`);
      return [batch.id];
    });
    process.stdout.write(`Results: ${cli.library.dir}\n`);
    return code;
  } finally {
    await cli.core.stop();
  }
}
