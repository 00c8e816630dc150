import type { Command } from 'commander';
import { apiKeyId } from '../../core/api/index.ts';
import { SERVICE_RATE_LIMIT } from '../../core/scheduler/budget.ts';
import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import { type Connection, connect, drive, openStore } from '../drive.ts';
import { EXIT } from '../exit-codes.ts';
import { addHostingOptions, type HostingFlags, hostingFrom } from '../hosting-options.ts';
import { positiveNumber, rateLimitOption } from '../options.ts';
import { defaultDataDir } from '../paths.ts';

export function registerResumeCommand(program: Command): void {
  const command = program
    .command('resume')
    .description(
      'Finish every unfinished batch: follow created jobs to their end, create the rest, download all.',
    )
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option(
      '--rate-limit <N/Ws>',
      'requests per key in any rolling window',
      rateLimitOption,
      SERVICE_RATE_LIMIT,
    )
    .option(
      '--time-scale <factor>',
      'sandbox speed for sandbox batches',
      positiveNumber,
      DEFAULT_SANDBOX_TIME_SCALE,
    );
  addHostingOptions(command).action(
    async (
      options: HostingFlags & {
        dataDir: string;
        rateLimit: { limit: number; windowMs: number };
        timeScale: number;
      },
    ) => {
      const store = openStore(options.dataDir);
      const batches = store.unfinishedBatches();
      if (batches.length === 0) {
        process.stdout.write('Every batch has finished.\n');
        store.db.close();
        return;
      }
      const connections = new Map<string, Connection>();
      let sandbox: Connection | null = null;
      let service: Connection | null = null;
      const driven: string[] = [];
      try {
        for (const batch of batches) {
          if (batch.sandbox) {
            sandbox ??= await connect({
              dataDir: options.dataDir,
              sandbox: true,
              timeScale: options.timeScale,
            });
            connections.set(batch.id, sandbox);
          } else {
            const apiKey = process.env.ADBATCH_API_KEY?.trim();
            if (!apiKey || apiKeyId(apiKey) !== batch.keyId) {
              process.stderr.write(
                `${batch.name}: set ADBATCH_API_KEY to the key it was started with (${batch.keyHint}) to resume it.\n`,
              );
              continue;
            }
            service = await connect({
              dataDir: options.dataDir,
              sandbox: false,
              baseUrl: batch.baseUrl,
              timeScale: 1,
            });
            connections.set(batch.id, service);
          }
          if (batch.status === 'paused' && batch.statusReason !== 'user')
            store.setBatchStatus(batch.id, 'running');
          driven.push(batch.id);
          process.stdout.write(`Resuming ${batch.id}: ${batch.name}\n`);
        }
        if (driven.length === 0) {
          process.exitCode = EXIT.error;
          return;
        }
        process.exitCode = await drive({
          store,
          dataDir: options.dataDir,
          batchIds: driven,
          connections,
          rateLimit: options.rateLimit,
          timeScale: sandbox ? options.timeScale : 1,
          hosting: hostingFrom(options),
        });
      } finally {
        store.db.close();
        await sandbox?.sandbox?.sandbox.close();
      }
    },
  );
}
