import { Command, CommanderError } from 'commander';
import { isDamagedDatabase } from '../core/app/dispatch.ts';
import { LeaseHeldError } from '../core/app/public-api.ts';
import { registerAgencyCommands } from './commands/agency.ts';
import { registerAgentCommands } from './commands/agents.ts';
import { registerDecisionCommands } from './commands/decide.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerRedownloadCommand } from './commands/redownload.ts';
import { registerReshootCommand } from './commands/reshoot.ts';
import { registerResumeCommand } from './commands/resume.ts';
import { registerReviewCommand } from './commands/review.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerSandboxCommand } from './commands/sandbox.ts';
import { registerScanCommand } from './commands/scan.ts';
import { registerStatusCommand } from './commands/status.ts';
import { registerVideosCommand } from './commands/videos.ts';
import { EXIT } from './exit-codes.ts';
import { optionDescription } from './help.ts';
import { VERSION } from './version.ts';

const program = new Command()
  .name('adbatch')
  .description('Batch production of product ads: shoots and video ads from folders of product photos.')
  .version(VERSION)
  .configureHelp({ optionDescription })
  // A mistake is answered in a line or two, not with the whole help a screen long.
  .showHelpAfterError("(add --help for the command's options)")
  .exitOverride();

registerScanCommand(program);
registerRunCommand(program);
registerResumeCommand(program);
registerRedownloadCommand(program);
registerStatusCommand(program);
registerReviewCommand(program);
registerVideosCommand(program);
registerReshootCommand(program);
registerExportCommand(program);
registerDecisionCommands(program);
registerAgencyCommands(program);
registerMcpCommand(program);
registerAgentCommands(program);
registerSandboxCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`adbatch: ${(error as Error).message}`);
  process.exit(
    error instanceof LeaseHeldError
      ? EXIT.busy
      : isDamagedDatabase(error)
        ? EXIT.damagedDatabase
        : EXIT.error,
  );
}
