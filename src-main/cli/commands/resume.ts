import { type Command, Option } from 'commander';
import { SERVICE_RATE_LIMIT } from '../../core/app/public-api.ts';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import { needsYouWords } from '../../shared/words.ts';
import { EXIT } from '../exit-codes.ts';
import { follow, needsYouLine } from '../follow.ts';
import { addHostingOptions, type HostingFlags, hostingFrom } from '../hosting-options.ts';
import { openCliCore } from '../open-core.ts';
import { formatRateLimit, positiveNumber, rateLimitOption } from '../options.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir } from '../paths.ts';
import { sessionKeysFromEnv } from './session-key.ts';

export function registerResumeCommand(program: Command): void {
  const command = program
    .command('resume')
    .description(
      'Finish every unfinished batch: follow created jobs to their end, create the rest, download all.',
    )
    .argument(
      '[batch]',
      'only this batch, resumed even if you paused it (adbatch pause); every batch when absent',
    )
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .option(
      '--yes',
      'resume batches restored from a backup too: what they send may have been sent, and paid, after the backup',
    )
    .addOption(
      new Option('--rate-limit <N/Ws>', 'requests per key in any rolling window')
        .argParser(rateLimitOption)
        .default(SERVICE_RATE_LIMIT, formatRateLimit(SERVICE_RATE_LIMIT)),
    )
    .option(
      '--time-scale <factor>',
      'sandbox speed for sandbox batches',
      positiveNumber,
      DEFAULT_SANDBOX_TIME_SCALE,
    );
  addHostingOptions(command).action(
    async (
      only: string | undefined,
      options: HostingFlags &
        OutboundFlags & {
          dataDir: string;
          yes?: boolean;
          rateLimit: { limit: number; windowMs: number };
          timeScale: number;
        },
    ) => {
      const cli = openCliCore({
        dataDir: options.dataDir,
        holderName: 'adbatch resume',
        leaseMode: 'require',
        driveUnfinished: true,
        // The key's batches are resumed at the base URL each was started with.
        sessionKeys: sessionKeysFromEnv(),
        storage: hostingFrom(options),
        allowHosts: options.allowHost,
        rateLimit: options.rateLimit,
        timeScale: options.timeScale,
      });
      try {
        await cli.core.start();
        const batches = (await cli.call('batches:list'))
          .filter((batch) => only === undefined || batch.id === only)
          .reverse();
        // A batch that needs you has nothing to run: resuming cannot settle its doubt, a decision does. It is
        // said, never passed over as finished, and the exit says it unless something else is worse.
        const needYou = batches.filter((batch) => batch.status === 'needs_you');
        for (const batch of needYou) process.stdout.write(`${needsYouLine(batch, needsYouWords(batch)!)}\n`);
        const unfinished = batches.filter(
          (batch) => batch.status !== 'finished' && batch.status !== 'needs_you',
        );
        if (unfinished.length === 0) {
          process.exitCode = needYou.length > 0 ? EXIT.needsYou : EXIT.ok;
          if (needYou.length > 0) return;
          // Says which: no such batch (core's words), or one that has nothing left to resume.
          if (only !== undefined) {
            const batch = await cli.call('batches:get', { id: only });
            process.stdout.write(`${batch.name} has finished: there is nothing to resume.\n`);
          } else process.stdout.write('Every batch has finished.\n');
          return;
        }
        const driven = unfinished.filter((batch) => {
          if (!batch.keyHeld) {
            process.stderr.write(
              `${batch.name}: set ADBATCH_API_KEY to the key it was started with (${batch.keyHint}) to resume it.\n`,
            );
          }
          return batch.keyHeld;
        });
        if (driven.length === 0) {
          process.exitCode = EXIT.error;
          return;
        }
        const code = await follow(cli, async () => {
          for (const batch of driven) {
            // A restored backup's batch may send again what was sent after the backup: a person's decision,
            // said as --yes. Until then it is followed (what was created is polled and downloaded, free).
            if (batch.status === 'paused' && batch.statusReason === 'restored' && !options.yes) {
              process.stderr.write(`${batch.name}: ${batch.statusMessage} Add --yes to resume it.\n`);
            } else if (batch.status === 'paused' && (batch.statusReason !== 'user' || only === batch.id)) {
              // A batch the user paused stays paused in a resume of every batch; naming it resumes it.
              await cli.call('batches:resume', { id: batch.id });
            }
            process.stdout.write(`Resuming ${batch.id}: ${batch.name}\n`);
          }
          return driven.map((batch) => batch.id);
        });
        process.exitCode = code === EXIT.ok && needYou.length > 0 ? EXIT.needsYou : code;
      } finally {
        await cli.core.stop();
      }
    },
  );
}
