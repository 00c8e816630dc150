import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import type { PickedVideosRequest } from '../../shared/models.ts';
import { priceWords } from '../../shared/money-words.ts';
import { EXIT } from '../exit-codes.ts';
import { follow } from '../follow.ts';
import { openCliCore } from '../open-core.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir } from '../paths.ts';
import { oneLine } from '../terminal-text.ts';
import { parseVideo } from './run.ts';
import { sessionKeysFromEnv } from './session-key.ts';

// `adbatch videos <batch> --from picked --video 10s/720p`: a video per product from the shots picked in
// Review (in shot order), quoted per product against the balance; with --yes, queued and followed to the
// end like `resume`. ADBATCH_API_KEY is the key of a batch that `adbatch run` made with it. --logo takes an
// image file (checked, kept in the data folder, served like the photos) or a public URL.

function onOff(text: string): boolean {
  if (text === 'on' || text === 'off') return text === 'on';
  throw new InvalidArgumentError('music is on or off');
}

/** A value starting with http:// or https:// is the logo's URL; anything else a file, from the cwd. */
function logoChoice(value: string): { logoUrl: string } | { logoFile: string } {
  return /^https?:\/\//i.test(value) ? { logoUrl: value } : { logoFile: resolve(value) };
}

export function registerVideosCommand(program: Command): void {
  program
    .command('videos')
    .description('Make a video of each product from its picked shots (picked in Review): quoted, then made.')
    .argument('<batch>', 'a batch id')
    .addOption(new Option('--from <what>', 'which shots').choices(['picked']).makeOptionMandatory())
    .requiredOption('--video <spec>', 'the video: 10s/720p[/with_model][/16:9]', parseVideo)
    .option(
      '--logo <file|url>',
      'a logo to reveal in the ad: an image file (PNG, JPEG, WebP) or a public URL',
    )
    .option('--music <on|off>', 'a background track', onOff)
    .option('--note <text>', 'creative direction for the service')
    .option('--yes', 'make them without asking: the credits are spent')
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .action(
      async (
        batchId: string,
        options: OutboundFlags & {
          video: PickedVideosRequest['video'];
          logo?: string;
          music?: boolean;
          note?: string;
          yes?: boolean;
          dataDir: string;
        },
      ) => {
        const cli = openCliCore({
          dataDir: options.dataDir,
          holderName: 'adbatch videos',
          leaseMode: options.yes ? 'require' : 'none',
          sessionKeys: sessionKeysFromEnv(),
          allowHosts: options.allowHost,
          timeScale: DEFAULT_SANDBOX_TIME_SCALE,
        });
        try {
          const request: PickedVideosRequest = {
            batchId,
            video: {
              ...options.video,
              ...(options.logo ? logoChoice(options.logo) : {}),
              ...(options.music !== undefined ? { music: options.music } : {}),
              ...(options.note ? { note: options.note } : {}),
            },
          };
          if (options.yes) await cli.core.start();
          const quote = await cli.call('videos:quote', request);
          if (quote.products.every((product) => product.used.length === 0)) {
            // A table of "no picks" rows and a word about --yes would suggest something could be made.
            process.stderr.write(
              `No product in batch ${batchId} has a picked shot yet: pick shots in Review in the app, or with \`adbatch pick <file...>\` (\`adbatch review ${batchId}\` shows where its review stands). Nothing was spent.\n`,
            );
            process.exitCode = EXIT.error;
            return;
          }
          const names = quote.products.map((product) => oneLine(product.productName));
          const width = Math.max(7, ...names.map((name) => name.length));
          const lines = quote.products.map(
            (product, index) =>
              `${names[index]!.padEnd(width)}  ${String(product.used.length).padStart(5)}  ${
                product.credits > 0 ? String(product.credits).padStart(7) : 'no picks'
              }`,
          );
          process.stdout.write(
            `${'Product'.padEnd(width)}  Shots  Credits\n${lines.join('\n')}\n${'Total'.padEnd(width)}  ${' '.repeat(5)}  ${String(quote.credits).padStart(7)}\nEach video: ${priceWords(quote.price)}\nBalance: ${quote.balance} credits\n`,
          );
          if (!options.yes) {
            process.stdout.write('Add --yes to make these videos.\n');
            return;
          }
          process.exitCode = await follow(cli, async () => {
            const batch = await cli.call('videos:create', request);
            process.stdout.write(
              `Making ${quote.products.filter((product) => product.credits > 0).length} videos.\n`,
            );
            return [batch.id];
          });
        } finally {
          await cli.core.stop();
        }
      },
    );
}
