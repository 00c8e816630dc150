import { buildProgram, exitCodeOf } from '../../src-main/cli/program.ts';
import type { CliResult } from './cli.ts';

// The `adbatch` program parsed in this process, for what commander answers before a command does any work:
// help, the version, refused arguments. Help is laid out for 80 columns without colour, as in a pipe.

export async function adbatchInProcess(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const writeErr = (text: string) => {
    stderr += text;
  };
  const program = buildProgram({
    writeOut: (text) => {
      stdout += text;
    },
    writeErr,
    getOutHelpWidth: () => 80,
    getErrHelpWidth: () => 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: exitCodeOf(error, writeErr), stdout, stderr };
  }
}
