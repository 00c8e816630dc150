import { resolve } from 'node:path';
import { lastPathPart, namingInput } from '../shared/batch-name.ts';
import { counted } from '../shared/counted.ts';
import { localMinuteWords } from '../shared/local-time.ts';
import type { ProblemView, ScanView } from '../shared/models.ts';

/** Products named in the line before "and N more": enough to recognise the batch, short enough for one line. */
const NAMED = 3;

/**
 * The products a quote set aside (already shot, or being shot, from the same photos with the same
 * settings) as ONE line with the flag that includes them: a re-run of a folder of 13 products is one line
 * to read, not 13 warnings.
 */
export function setAsideLine(setAside: readonly ProblemView[]): string {
  const done = setAside.filter((problem) => problem.code === 'already_done').length;
  const running = setAside.length - done;
  const states = [
    done > 0 ? `${counted(done, 'product')} already shot` : '',
    running > 0 ? `${done > 0 ? running : counted(running, 'product')} being shot` : '',
  ].filter(Boolean);
  const names = setAside.slice(0, NAMED).map((problem) => problem.file);
  const more = setAside.length > NAMED ? ` and ${setAside.length - NAMED} more` : '';
  const them = setAside.length === 1 ? 'it' : 'them';
  return (
    `Skipped ${states.join(' and ')} from these photos with these settings (${names.join(', ')}${more}); ` +
    `--include-done shoots ${them} again.`
  );
}

/** The name itself when no batch has it yet, else the first "name (2)", "name (3)"... that is free. */
export function freshBatchName(name: string, taken: readonly string[]): string {
  const names = new Set(taken);
  if (!names.has(name)) return name;
  let suffix = 2;
  while (names.has(`${name} (${suffix})`)) suffix++;
  return `${name} (${suffix})`;
}

/**
 * A batch's name when the command line gives none: the minute it starts, in the computer's own time (as
 * the app's clock shows it, not UTC), and the first input that gave it a product (`namingInput`).
 */
export function defaultBatchName(
  inputs: readonly string[],
  scan: Pick<ScanView, 'products' | 'problems' | 'skippedFiles'>,
  at: number,
): string {
  const naming = namingInput(
    inputs.map((input) => resolve(input)),
    scan,
  );
  return `${localMinuteWords(at)} ${lastPathPart(naming ?? 'batch')}`;
}
