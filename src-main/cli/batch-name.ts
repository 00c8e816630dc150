import { resolve } from 'node:path';
import { lastPathPart, namingInput } from '../shared/batch-name.ts';
import { localMinuteWords } from '../shared/local-time.ts';
import type { ScanView } from '../shared/models.ts';

// The name `adbatch run` gives a batch when --name gives none: the minute and the input it came from, and a
// number when that name is taken.

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
