import { type Command, InvalidArgumentError, Option } from 'commander';

import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import type {
  BatchDetail,
  CatalogView,
  ReshootQuote,
  ReshootRequest,
  ShootSettingsView,
} from '../../shared/models.ts';
import { priceWords } from '../../shared/money-words.ts';
import { MODES, QUALITIES, SHOOT_ASPECT_RATIOS, SHOOT_STYLES, SHOT_COUNTS } from '../../shared/vocabulary.ts';
import { EXIT } from '../exit-codes.ts';
import { follow } from '../follow.ts';
import { openCliCore } from '../open-core.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir } from '../paths.ts';
import { oneLine } from '../terminal-text.ts';
import { confirm } from './run.ts';
import { sessionKeysFromEnv } from './session-key.ts';

// `adbatch reshoot <batch> --style S`: the products whose shots are all rejected (in Review, or a subset
// named with --products) shot again with other settings in the same batch. What is not given is the batch's
// own setting. The quote is printed per product against the balance, as `run` prints a batch's; then asked
// (or --yes), added to the batch and followed to the end like `resume`. ADBATCH_API_KEY is the key of a
// batch that `adbatch run` made with it.

interface ReshootOptions extends OutboundFlags {
  products?: string[];
  style: ShootSettingsView['style'];
  quality?: ShootSettingsView['quality'];
  shots?: string;
  aspect?: string;
  mode?: ShootSettingsView['mode'];
  model?: string;
  background?: string;
  yes?: boolean;
  dataDir: string;
}

function list(text: string): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('name at least one product');
  return names;
}

function colour(text: string): string {
  if (text === 'none' || /^#(?:[0-9a-f]{3}){1,2}$/i.test(text)) return text;
  throw new InvalidArgumentError('a hex colour such as #f4efe6, or none');
}

/** Products named by id or by name (any case), each exactly one product of the batch. */
function productIds(detail: BatchDetail, names: readonly string[]): string[] {
  return names.map((name) => {
    const byId = detail.items.find((product) => product.id === name);
    if (byId) return byId.id;
    const matches = detail.items.filter((product) => product.name.toLowerCase() === name.toLowerCase());
    if (matches.length === 1) return matches[0]!.id;
    throw new Error(
      matches.length === 0
        ? `batch ${detail.id} has no product named ${name}`
        : `${matches.length} products of batch ${detail.id} are named ${name}: name them by id (adbatch status ${detail.id} --json)`,
    );
  });
}

/** The new shoot: what the options say, else what the batch was shot with. */
function settingsOf(options: ReshootOptions, batch: ShootSettingsView): ShootSettingsView {
  const mode = options.mode ?? (options.model ? 'with_model' : batch.mode);
  const modelUrl = mode === 'with_model' ? (options.model ?? batch.modelUrl) : null;
  if (mode === 'with_model' && !modelUrl) throw new Error('--mode with_model needs --model <url>');
  return {
    style: options.style,
    shots: (options.shots ? Number(options.shots) : batch.shots) as ShootSettingsView['shots'],
    quality: options.quality ?? batch.quality,
    aspectRatio: options.aspect ?? batch.aspectRatio,
    mode,
    modelUrl,
    backgroundColor:
      options.background === undefined
        ? batch.backgroundColor
        : options.background === 'none'
          ? null
          : options.background,
  };
}

export function formatReshootQuote(quote: ReshootQuote, catalog: CatalogView): string {
  const names = quote.products.map((row) => oneLine(row.productName));
  const width = Math.max(7, ...names.map((name) => name.length));
  const header = `${'Product'.padEnd(width)}  Rejected  Shots  Credits`;
  const lines = [header, '-'.repeat(header.length)];
  for (const [index, row] of quote.products.entries()) {
    const shots = `${row.shots}${row.clamped ? '*' : ''}`;
    lines.push(
      `${names[index]!.padEnd(width)}  ${String(row.rejected).padStart(8)}  ${shots.padStart(5)}  ${String(row.credits).padStart(7)}`,
    );
  }
  lines.push('-'.repeat(header.length));
  lines.push(`${'Total'.padEnd(width)}  ${' '.repeat(15)}  ${String(quote.credits).padStart(7)}`);
  lines.push(`Each shoot: ${priceWords(quote.price)}`);
  if (quote.products.some((row) => row.clamped)) {
    const sixShotStyles = catalog.styles.filter((style) => style.sixShots).map((style) => style.id);
    lines.push(
      `* 6 shots are made only in the ${sixShotStyles.join(' and ')} styles; this style makes ${catalog.clampedShots}.`,
    );
  }
  for (const row of quote.underway) lines.push(`${row.productName} is being shot already.`);
  lines.push(
    `Balance: ${quote.balance} credits${quote.shortfall ? `, ${quote.shortfall} short of this reshoot` : ''}.`,
  );
  return lines.join('\n');
}

export function registerReshootCommand(program: Command): void {
  program
    .command('reshoot')
    .description(
      'Shoot again, with other settings, the products whose shots are all rejected in Review: quoted, then made.',
    )
    .argument('<batch>', 'a batch id')
    .option('--products <names>', 'only these products (names or ids, comma-separated)', list)
    .addOption(new Option('--style <style>', 'shoot style').choices(SHOOT_STYLES).makeOptionMandatory())
    .addOption(new Option('--quality <q>', "image quality (the batch's)").choices(QUALITIES))
    .addOption(new Option('--shots <n>', "shots per product (the batch's)").choices(SHOT_COUNTS.map(String)))
    .addOption(new Option('--aspect <ratio>', "aspect ratio (the batch's)").choices(SHOOT_ASPECT_RATIOS))
    .addOption(new Option('--mode <mode>', "with or without a model (the batch's)").choices(MODES))
    .option('--model <url>', 'public image URL of the model (shoots with the model)')
    .option('--background <hex|none>', "background colour hint (the batch's)", colour)
    .option('--yes', 'reshoot without asking: the credits are spent')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .action(async (batchId: string, options: ReshootOptions) => {
      process.exitCode = await reshootCommand(batchId, options);
    });
}

async function reshootCommand(batchId: string, options: ReshootOptions): Promise<number> {
  const asking = !options.yes && process.stdin.isTTY;
  const cli = openCliCore({
    dataDir: options.dataDir,
    holderName: 'adbatch reshoot',
    // Only a reshoot that may be made takes the queue; a quote alone reads beside whoever drives it.
    leaseMode: options.yes || asking ? 'require' : 'none',
    sessionKeys: sessionKeysFromEnv(),
    allowHosts: options.allowHost,
    timeScale: DEFAULT_SANDBOX_TIME_SCALE,
  });
  try {
    if (options.yes || asking) await cli.core.start();
    const detail = await cli.call('batches:get', { id: batchId });
    const request: ReshootRequest = {
      batchId,
      ...(options.products ? { productIds: productIds(detail, options.products) } : {}),
      shoot: settingsOf(options, detail.shoot),
    };
    const quote = await cli.call('reshoot:quote', request);
    if (quote.products.length === 0) {
      process.stdout.write(
        quote.underway.length > 0
          ? `${quote.underway.map((row) => row.productName).join(', ')}: being shot already. Nothing to reshoot.\n`
          : 'No product has all its shots rejected: nothing to reshoot.\n',
      );
      return EXIT.ok;
    }
    process.stdout.write(`${formatReshootQuote(quote, await cli.call('catalog:get'))}\n`);
    const count = quote.products.length;
    if (!options.yes) {
      if (!asking) {
        process.stderr.write('Pass --yes to reshoot without a prompt. Nothing was started.\n');
        return EXIT.error;
      }
      if (
        !(await confirm(
          `Reshoot ${count} product${count === 1 ? '' : 's'} for ${quote.credits} credits? [y/N] `,
        ))
      ) {
        process.stderr.write('Nothing was started.\n');
        return EXIT.error;
      }
    }
    return await follow(cli, async () => {
      const batch = await cli.call('reshoot:create', request);
      process.stdout.write(`Reshooting ${count} product${count === 1 ? '' : 's'} in batch ${batch.id}.\n`);
      return [batch.id];
    });
  } finally {
    await cli.core.stop();
  }
}
