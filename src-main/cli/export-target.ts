import { resolve } from 'node:path';
import type { ExportLastChoiceView, ExportScope } from '../shared/models.ts';
import type { CliCore } from './open-core.ts';

// Where `adbatch export` writes, and with which recipes, when the command does not say (issue 31): the
// CLI's own last export for the client brand of the batches (the app keeps its own), said in one line so
// that a folder is never chosen silently. `--to last-app` takes the app's last export for that brand
// instead (the one way to share, named so that a user reads what it does).

/** `--to` naming the app's last export folder for the brand rather than a folder. */
export const LAST_APP = 'last-app';

export interface ExportTarget {
  destination: string;
  /** The recipes of the last export taken, when `--recipe` did not name any; null: the command's own. */
  recipes: string[] | null;
  /** What the command says it chose, in one line; null when `--to` named the folder. */
  line: string | null;
}

/** The brand in words for the line: a batch billed to no brand is the user's own. */
function whose(last: ExportLastChoiceView): string {
  return last.brand === null ? '' : ` for ${last.brand}`;
}

export async function exportTarget(
  cli: CliCore,
  scope: ExportScope,
  to: string | undefined,
  recipesAsked: boolean,
): Promise<ExportTarget> {
  if (to !== undefined && to !== LAST_APP) return { destination: resolve(to), recipes: null, line: null };
  const from = to === LAST_APP ? 'app' : 'cli';
  const last = await cli.call('export:lastChoice', { scope, from });
  if (!last) {
    throw new Error(
      from === 'app'
        ? 'the app has not exported these batches’ brand yet: say where with --to DIR'
        : 'say where with --to DIR (the CLI has not exported these batches’ brand before; --to last-app takes the app’s last folder)',
    );
  }
  const recipes = recipesAsked ? null : last.recipes;
  const taken = recipes ? ` with ${recipes.join(', ')}` : '';
  const source = from === 'app' ? `the app's last export${whose(last)}` : `your last export${whose(last)}`;
  return {
    destination: last.destination,
    recipes,
    line: `to ${last.destination}${taken} (${source}; --to to change)`,
  };
}
