import { type Command, Option } from 'commander';
import { loadAccountsFile } from '../../sandbox/accounts.ts';
import { parseDurationSpread, STEADY } from '../../sandbox/duration-spread.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { port, positiveNumber, probability, rateLimitOption } from '../options.ts';

function describeAccounts(sandbox: Sandbox): string[] {
  const lines = ['Accounts:'];
  for (const account of sandbox.accounts()) {
    const kind =
      account.type === 'agency' ? `agency, ${account.plan?.replace('_', ' ')} plan, pool of` : 'personal,';
    lines.push(`  ${account.name} (${kind} ${account.credits} credits)`);
    for (const key of account.keys) {
      lines.push(
        `    ${key.key}${account.type === 'agency' ? (key.brand ? `  pinned to ${key.brand}` : '  all brands') : ''}`,
      );
    }
  }
  return lines;
}

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('Run the embedded sandbox of the ad service: no key, no network, no credits spent.')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', port, 0)
    .option('--accounts <file>', 'accounts, brands and keys as JSON (see docs/sandbox.md)')
    .option(
      '--time-scale <factor>',
      'multiply every job duration (0.01 = a hundred times faster)',
      positiveNumber,
      1,
    )
    .addOption(
      new Option('--rate-limit <N/Ws>', 'requests allowed per key in any rolling window')
        .argParser(rateLimitOption)
        .default(rateLimitOption('60/60s'), '60/60s'),
    )
    .option('--failure-rate <p>', 'probability that a job fails (refunded)', probability, 0)
    .addOption(
      new Option(
        '--durations <spread>',
        'how job durations spread: steady (±20 %), wide (log-normal), slow-tail:<share>x<factor>',
      )
        .argParser(parseDurationSpread)
        .default(STEADY, 'steady'),
    )
    .option('--state <file>', 'keep the state in this JSON file so it survives a restart')
    .addOption(
      new Option('--video-renderer <kind>', 'how video results are made')
        .choices(['auto', 'ffmpeg', 'bundled'])
        .default('auto'),
    )
    .action(async (options) => {
      // Imported by this command only: the server brings its renderers (sharp) with it.
      const { startSandbox } = await import('../../sandbox/server.ts');
      const sandbox = await startSandbox({
        host: options.host,
        port: options.port,
        ...(options.accounts ? { accounts: await loadAccountsFile(options.accounts) } : {}),
        timeScale: options.timeScale,
        rateLimit: options.rateLimit,
        failureRate: options.failureRate,
        durations: options.durations,
        ...(options.state ? { stateFile: options.state } : {}),
        videoRenderer: options.videoRenderer,
      });
      const lines = [
        `Sandbox listening on ${sandbox.url}`,
        ...describeAccounts(sandbox),
        `Time scale ${options.timeScale}, rate limit ${options.rateLimit.limit} per ${options.rateLimit.windowMs / 1000} s, failure rate ${options.failureRate}.`,
        'Press Ctrl+C to stop.',
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sandbox.close();
    });
}
