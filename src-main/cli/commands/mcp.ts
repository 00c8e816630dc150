import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { SANDBOX_ACCOUNT_ID, sessionAccountId } from '../../core/app/public-api.ts';
import { openCliCore } from '../open-core.ts';
import { allowHostOption, type OutboundFlags } from '../outbound-options.ts';
import { defaultDataDir, LIBRARY_HELP } from '../paths.ts';
import { VERSION } from '../version.ts';
import { INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP, sessionKeyFromEnv } from './session-key.ts';

// `adbatch mcp`: Adbatch's tools for an agent (Claude Desktop, an IDE assistant, a team's automation) over
// stdio, on the data folder the app uses. Beside a running app that holds the folder, the batches it makes
// are driven by the app; with the app closed it drives them itself, and hands over when the app opens (the
// queue's lease, mode `wait`): two processes never drive one queue. Spending waits for a person's yes (in
// the app, or `adbatch approve`) unless it fits the allowance the user set. Stdout is the protocol's:
// anything else this process has to say goes to stderr.

interface McpCommandOptions extends OutboundFlags {
  dataDir: string;
  library?: string;
  baseUrl?: string;
  insecureHttp?: boolean;
  exportFolder: string[];
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      "Serve Adbatch's tools to an agent over MCP on stdio: scan, quote, submit (a person approves), follow, review.",
    )
    .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir())
    .addOption(allowHostOption())
    .option('--library <dir>', LIBRARY_HELP)
    .option('--base-url <url>', "the service's address, its key in ADBATCH_API_KEY (else the Sandbox)")
    .option(INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP)
    .addOption(
      new Option('--export-folder <dir>', 'a folder agents may export into (again for more)')
        .argParser((dir: string, dirs: string[]) => [...dirs, resolve(dir)])
        .default([], 'none: export_batch refuses'),
    )
    .action(async (options: McpCommandOptions) => {
      const sessionKey = options.baseUrl ? sessionKeyFromEnv(options.baseUrl, options) : null;
      const cli = openCliCore({
        dataDir: options.dataDir,
        holderName: 'adbatch mcp',
        leaseMode: 'wait',
        driveUnfinished: true,
        library: options.library,
        sessionKeys: sessionKey ? [sessionKey] : [],
        allowHosts: options.allowHost,
      });
      await cli.core.start();
      // The MCP SDK is imported by this command only: it takes about 200 ms to load, which no other
      // command should pay at startup.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.ts'),
      ]);
      const server = await createMcpServer({
        call: cli.call,
        defaultAccountId: sessionKey ? sessionAccountId(sessionKey.apiKey) : SANDBOX_ACCOUNT_ID,
        version: VERSION,
        library: () => cli.library,
        exportFolders: () => options.exportFolder,
      });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
      });
      await server.connect(transport);
      await closed;
      await server.close();
      await cli.core.stop();
    });
}
