import { buildProgram, exitCodeOf } from './program.ts';
import { keepPrintable } from './terminal-text.ts';

// Names and messages from outside are printed: none of them may act on the terminal (terminal-text.ts).
keepPrintable(process.stdout);
keepPrintable(process.stderr);

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exit(exitCodeOf(error, (text) => process.stderr.write(text)));
}
