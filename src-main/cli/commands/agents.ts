import type { Command } from 'commander';
import { counted } from '../../shared/counted.ts';
import type { AgentRequestView } from '../../shared/models.ts';
import { AGENT_REQUEST_STATE_WORDS } from '../../shared/words.ts';
import { type CliCore, hasQueue, openCliCore } from '../open-core.ts';
import { defaultDataDir, LIBRARY_HELP, sayLibrary } from '../paths.ts';
import { INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP, sessionKeyFromEnv } from './session-key.ts';

// A person's answer to agents' requests from the command line (issue 16): `adbatch requests` lists them,
// `adbatch approve <request>` makes the batch (unless the balance or the prices changed since its quote),
// `adbatch decline <request>` makes nothing. The batch is driven by whichever process holds the queue (the
// app, `adbatch mcp`, or the next `adbatch resume`). A request on a service's key needs that key again, in
// ADBATCH_API_KEY with --base-url: the command line keeps no keys.

const credits = new Intl.NumberFormat('en-US');

interface AgentsOptions {
  dataDir: string;
  baseUrl?: string;
  insecureHttp?: boolean;
  library?: string;
}

function line(request: AgentRequestView): string {
  const state = AGENT_REQUEST_STATE_WORDS[request.state];
  const brand = request.brandName ? ` for ${request.brandName}` : '';
  const decided = request.decidedBy ? ` (${request.decidedBy})` : '';
  const reason = request.reason ? `: ${request.reason}` : '';
  return `${request.id}  ${request.client}: "${request.name}"${brand}, ${counted(request.products, 'product')}, ${credits.format(request.credits)} credits on ${request.accountName}, ${state}${decided}${reason}`;
}

function decidingCore(options: AgentsOptions): CliCore {
  const sessionKey = options.baseUrl ? sessionKeyFromEnv(options.baseUrl, options) : null;
  return openCliCore({
    dataDir: options.dataDir,
    holderName: 'adbatch approve',
    leaseMode: 'none',
    library: options.library,
    sessionKeys: sessionKey ? [sessionKey] : [],
  });
}

async function withCore<T>(options: AgentsOptions, run: (cli: CliCore) => Promise<T>): Promise<T> {
  if (!hasQueue(options.dataDir)) throw new Error(`there is no Adbatch data in ${options.dataDir}`);
  const cli = decidingCore(options);
  try {
    return await run(cli);
  } finally {
    await cli.core.stop();
  }
}

export function registerAgentCommands(program: Command): void {
  program
    .command('requests')
    .description("Agents' requests to spend, newest first.")
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--json', 'as JSON')
    .action((options: AgentsOptions & { json?: boolean }) => {
      // As `adbatch status`: looking at a folder nothing ran in is no error, and creates nothing.
      if (!hasQueue(options.dataDir)) {
        process.stdout.write(
          options.json ? '[]\n' : `No agent has asked for anything in ${options.dataDir}.\n`,
        );
        return;
      }
      return withCore(options, async (cli) => {
        const requests = await cli.call('agents:requests');
        if (options.json) process.stdout.write(`${JSON.stringify(requests, null, 2)}\n`);
        else if (requests.length === 0) process.stdout.write('No agent has asked for anything.\n');
        else process.stdout.write(`${requests.map(line).join('\n')}\n`);
      });
    });

  program
    .command('approve <request>')
    .description("Say yes to an agent's request: its batch is made and runs.")
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--base-url <url>', "the service's address, its key in ADBATCH_API_KEY (not for the Sandbox)")
    .option(INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP)
    .option('--library <dir>', LIBRARY_HELP)
    .action((id: string, options: AgentsOptions) =>
      withCore(options, async (cli) => {
        sayLibrary(cli.library);
        const decided = await cli.call('agents:approve', { id, by: 'adbatch approve' });
        if (decided.state !== 'created') {
          process.stderr.write(`adbatch: ${line(decided)}\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(
          `Approved: batch ${decided.batchId} for ${decided.client}, ${credits.format(decided.credits)} credits.\n`,
        );
      }),
    );

  program
    .command('decline <request>')
    .description("Say no to an agent's request: nothing is made or spent.")
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .option('--reason <words>', 'told to the agent')
    .action((id: string, options: AgentsOptions & { reason?: string }) =>
      withCore(options, async (cli) => {
        const decided = await cli.call('agents:decline', {
          id,
          by: 'adbatch decline',
          ...(options.reason ? { reason: options.reason } : {}),
        });
        process.stdout.write(`Declined: ${decided.client}'s "${decided.name}".\n`);
      }),
    );
}
