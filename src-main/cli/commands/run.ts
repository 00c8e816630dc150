import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { apiKeyId, looksLikeApiKey, maskApiKey, ServiceClient } from '../../core/api/index.ts';
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
} from '../../core/catalog.ts';
import type { S3HostingConfig } from '../../core/hosting/s3.ts';
import { setAsideEarlierShots } from '../../core/ingest/already-done.ts';
import { DEFAULT_GROUP_PATTERN, parseGroupPattern } from '../../core/ingest/group.ts';
import { scanInputs, toNewProduct } from '../../core/ingest/scan.ts';
import { ingestCacheDir } from '../../core/library.ts';
import { type BatchQuote, quoteBatch } from '../../core/pricing.ts';
import type { QueueStore } from '../../core/queue/store.ts';
import type { NewProduct, ShootSettings, VideoSettings } from '../../core/queue/types.ts';
import { SERVICE_RATE_LIMIT } from '../../core/scheduler/budget.ts';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import { type Connection, connect, drive, openStore } from '../drive.ts';
import { EXIT } from '../exit-codes.ts';
import { addHostingOptions, type HostingFlags, hostingFrom } from '../hosting-options.ts';
import { positiveNumber, rateLimitOption, wholeNumber } from '../options.ts';
import { defaultDataDir, defaultLibraryDir } from '../paths.ts';
import { formatProblems, shown } from './scan.ts';

/** `10s/720p[/with_model][/16:9]` */
export function parseVideo(text: string): VideoSettings {
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
  let mode: VideoSettings['mode'] = 'product_only';
  let aspectRatio: VideoAspectRatio | null = null;
  for (const part of rest) {
    if (MODES.includes(part as never)) mode = part as VideoSettings['mode'];
    else if (VIDEO_ASPECT_RATIOS.includes(part as never)) aspectRatio = part as VideoAspectRatio;
    else
      throw new InvalidArgumentError(
        `"${part}" is neither a mode (${MODES.join(', ')}) nor a video aspect ratio`,
      );
  }
  return {
    duration: duration as VideoSettings['duration'],
    resolution: resolution as VideoSettings['resolution'],
    mode,
    aspectRatio,
  };
}

export function formatQuote(quote: BatchQuote, video: boolean): string {
  const width = Math.max(7, ...quote.products.map((row) => row.product.length));
  const header = `${'Product'.padEnd(width)}  Shots  Shoot${video ? '  Video' : ''}  Credits`;
  const lines = [header, '-'.repeat(header.length)];
  for (const row of quote.products) {
    const shots = `${row.shoot.shots}${row.shoot.clamped ? '*' : ''}`;
    lines.push(
      `${row.product.padEnd(width)}  ${shots.padStart(5)}  ${String(row.shoot.credits).padStart(5)}${
        video ? `  ${String(row.videoCredits).padStart(5)}` : ''
      }  ${String(row.credits).padStart(7)}`,
    );
  }
  lines.push('-'.repeat(header.length));
  lines.push(`${'Total'.padEnd(width)}  ${' '.repeat(video ? 19 : 12)}${String(quote.credits).padStart(7)}`);
  if (quote.products.some((row) => row.shoot.clamped)) {
    lines.push('* 6 shots are made only in the classic and minimal styles; this style makes 4.');
  }
  if (quote.balance !== null) {
    lines.push(
      `Balance: ${quote.balance} credits${quote.shortfall ? `, ${quote.shortfall} short of this batch` : ''}.`,
    );
  }
  return lines.join('\n');
}

async function confirm(question: string): Promise<boolean> {
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
    .addOption(new Option('--style <style>', 'shoot style').choices(SHOOT_STYLES).makeOptionMandatory())
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
    .option('--library <dir>', 'where results are saved', defaultLibraryDir())
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--budget <credits>', 'refuse to start a batch that costs more', wholeNumber)
    .option(
      '--rate-limit <N/Ws>',
      'requests per key in any rolling window',
      rateLimitOption,
      SERVICE_RATE_LIMIT,
    )
    .option('--yes', 'start without asking for confirmation')
    .option('--sandbox', 'use the embedded sandbox: no key, no network, no credits spent')
    .option('--base-url <url>', 'the service address; the key comes from ADBATCH_API_KEY')
    .option(
      '--time-scale <factor>',
      `sandbox speed (default ${DEFAULT_SANDBOX_TIME_SCALE}: ten times faster)`,
      positiveNumber,
    );
  addHostingOptions(command).action(async (folders: string[], options) => {
    process.exitCode = await runCommand(folders, options);
  });
}

interface RunOptions extends HostingFlags {
  style: ShootSettings['style'];
  shots: string;
  quality: ShootSettings['quality'];
  aspect: string;
  mode: ShootSettings['mode'];
  modelUrl?: string;
  background?: string;
  video?: VideoSettings;
  name?: string;
  pattern: string;
  includeDone?: boolean;
  library: string;
  dataDir: string;
  budget?: number;
  rateLimit: { limit: number; windowMs: number };
  yes?: boolean;
  sandbox?: boolean;
  baseUrl?: string;
  timeScale?: number;
}

interface Prepared {
  store: QueueStore;
  products: NewProduct[];
  shoot: ShootSettings;
  video: VideoSettings | null;
  timeScale: number;
  hosting: S3HostingConfig | null;
}

async function runCommand(folders: string[], options: RunOptions): Promise<number> {
  if (options.sandbox && options.baseUrl) throw new Error('choose --sandbox or --base-url, not both');
  if (options.mode === 'with_model' && !options.modelUrl)
    throw new Error('--mode with_model needs --model-url');
  if (options.background && !/^#(?:[0-9a-f]{3}){1,2}$/i.test(options.background)) {
    throw new Error('--background must be a hex colour such as #f4efe6');
  }
  const hosting = hostingFrom(options);
  const plan = await scanInputs(folders, {
    cacheDir: ingestCacheDir(options.library),
    pattern: parseGroupPattern(options.pattern),
  });
  if (plan.problems.length > 0) process.stderr.write(`${formatProblems(plan.problems)}\n`);
  if (plan.products.length === 0)
    throw new Error(`no usable product photos in ${folders.map(shown).join(', ')}`);

  const shoot: ShootSettings = {
    style: options.style,
    shots: Number(options.shots) as ShootSettings['shots'],
    quality: options.quality,
    aspectRatio: options.aspect,
    mode: options.mode,
    modelUrl: options.modelUrl ?? null,
    backgroundColor: options.background ?? null,
  };
  const video = options.video ?? null;
  const products = plan.products.map(toNewProduct);
  const store = openStore(options.dataDir);
  const { fresh, setAside } = setAsideEarlierShots(store, products, shoot, video, options.includeDone);
  if (setAside.length > 0) {
    process.stderr.write(`${formatProblems(setAside)}\n  (--include-done shoots them again)\n`);
  }
  if (fresh.length === 0) {
    store.db.close();
    process.stdout.write(
      'Nothing to shoot: every product was already shot with these photos and settings.\n',
    );
    return EXIT.ok;
  }
  const timeScale = options.sandbox ? (options.timeScale ?? DEFAULT_SANDBOX_TIME_SCALE) : 1;
  try {
    return await quoteAndRun(folders, options, { store, products: fresh, shoot, video, timeScale, hosting });
  } finally {
    store.db.close();
  }
}

async function quoteAndRun(
  folders: string[],
  options: RunOptions,
  { store, products: fresh, shoot, video, timeScale, hosting }: Prepared,
): Promise<number> {
  const connection: Connection = await connect({
    dataDir: options.dataDir,
    sandbox: Boolean(options.sandbox),
    baseUrl: options.baseUrl,
    timeScale,
  });
  try {
    if (!connection.sandbox && !looksLikeApiKey(connection.apiKey)) {
      throw new Error(
        'ADBATCH_API_KEY does not look like an API key (a prefix, "_", then 64 hexadecimal characters)',
      );
    }
    const client = new ServiceClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
    const balance = await client.getCredits();
    const quote = quoteBatch(
      fresh.map((product) => product.name),
      shoot,
      video,
      balance.credits,
    );
    process.stdout.write(`${formatQuote(quote, video !== null)}\n`);
    if (options.budget !== undefined && quote.credits > options.budget) {
      process.stderr.write(
        `This batch costs ${quote.credits} credits, over the --budget of ${options.budget}. Nothing was started.\n`,
      );
      return EXIT.error;
    }
    if (!options.yes) {
      if (!process.stdin.isTTY) {
        process.stderr.write('Pass --yes to start without a prompt. Nothing was started.\n');
        return EXIT.error;
      }
      if (!(await confirm(`Start this batch for ${quote.credits} credits? [y/N] `))) {
        process.stderr.write('Nothing was started.\n');
        return EXIT.error;
      }
    }
    const batch = store.createBatch({
      name:
        options.name ??
        `${new Date().toISOString().slice(0, 16).replace('T', ' ')} ${basename(resolve(folders[0]!))}`,
      baseUrl: connection.sandbox ? 'sandbox' : connection.baseUrl,
      keyId: apiKeyId(connection.apiKey),
      keyHint: maskApiKey(connection.apiKey),
      sandbox: Boolean(connection.sandbox),
      libraryDir: resolve(options.library),
      shoot,
      video,
      products: fresh,
    });
    process.stdout.write(`Batch ${batch.id} started: ${batch.name}\n`);
    const code = await drive({
      store,
      dataDir: options.dataDir,
      batchIds: [batch.id],
      connections: new Map([[batch.id, connection]]),
      rateLimit: options.rateLimit,
      timeScale,
      hosting,
    });
    process.stdout.write(`Results: ${resolve(options.library)}\n`);
    return code;
  } finally {
    await connection.sandbox?.sandbox.close();
  }
}
