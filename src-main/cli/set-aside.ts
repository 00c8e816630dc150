import { counted } from '../shared/counted.ts';
import type { ProblemView } from '../shared/models.ts';

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
