import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { isDamagedDatabase } from '../core/app/dispatch.ts';
import { refusalWords } from '../core/app/fs-refusal.ts';
import { LeaseHeldError } from '../core/app/public-api.ts';
import { registerAgencyCommands } from './commands/agency.ts';
import { registerAgentCommands } from './commands/agents.ts';
import { registerDecisionCommands } from './commands/decide.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerPickCommands } from './commands/pick.ts';
import { registerProductsCommand } from './commands/products.ts';
import { registerRedownloadCommand } from './commands/redownload.ts';
import { registerReshootCommand } from './commands/reshoot.ts';
import { registerResumeCommand } from './commands/resume.ts';
import { registerReviewCommand } from './commands/review.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerSandboxCommand } from './commands/sandbox.ts';
import { registerScanCommand } from './commands/scan.ts';
import { registerStatusCommand } from './commands/status.ts';
import { registerVideosCommand } from './commands/videos.ts';
import { EXIT, EXIT_HELP } from './exit-codes.ts';
import { optionDescription } from './help.ts';
import { ScanInterrupted } from './scan-interrupt.ts';
import { VERSION } from './version.ts';

/**
 * The `adbatch` program with every command, not yet run. `output` replaces where commander writes its help
 * and refusals (the terminal by default): set before the commands are added, since each copies it then.
 */
export function buildProgram(output: OutputConfiguration = {}): Command {
  const program = new Command()
    .name('adbatch')
    .description('Batch production of product ads: shoots and video ads from folders of product photos.')
    .version(VERSION)
    .configureOutput(output)
    .configureHelp({ optionDescription })
    // A mistake is answered in a line or two, not with the whole help a screen long.
    .showHelpAfterError("(add --help for the command's options)")
    .addHelpText('after', `\n${EXIT_HELP}`)
    .exitOverride();

  registerScanCommand(program);
  registerRunCommand(program);
  registerResumeCommand(program);
  registerRedownloadCommand(program);
  registerStatusCommand(program);
  registerReviewCommand(program);
  registerPickCommands(program);
  registerVideosCommand(program);
  registerReshootCommand(program);
  registerProductsCommand(program);
  registerExportCommand(program);
  registerDecisionCommands(program);
  registerAgencyCommands(program);
  registerMcpCommand(program);
  registerAgentCommands(program);
  registerSandboxCommand(program);
  return program;
}

/**
 * The exit code of a run that threw: commander's own (it has already said why, through its output), or, for
 * a command's error, its message in one line on `writeErr` and the code for it.
 */
export function exitCodeOf(error: unknown, writeErr: (text: string) => void): number {
  if (error instanceof CommanderError) return error.exitCode;
  writeErr(`adbatch: ${refusalWords(error)}\n`);
  if (error instanceof LeaseHeldError) return EXIT.busy;
  if (error instanceof ScanInterrupted) return EXIT.interrupted;
  return isDamagedDatabase(error) ? EXIT.damagedDatabase : EXIT.error;
}
