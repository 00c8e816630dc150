import { buildProgram, exitCodeOf } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exit(exitCodeOf(error, (text) => process.stderr.write(text)));
}
